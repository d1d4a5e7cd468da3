// How the run reached the target, as every report shows it at the top: TLS verification off
// (--insecure), the TLS session the probe saw, the proxy, the extra headers (secret values already
// redacted) and the notes (a certificate close to expiry). Read from the run result alone.
import type { RunResult } from '../core/types.ts';

export interface ConnectionLine {
  /** warn: verification was off; info: a note worth a reader's eye; plain: what was used. */
  tone: 'warn' | 'info' | 'plain';
  text: string;
}

export function connectionLines(result: Pick<RunResult, 'options' | 'connection'>): ConnectionLine[] {
  const lines: ConnectionLine[] = [];
  const o = result.options;
  const c = result.connection;
  if (o.insecure === true)
    lines.push({
      tone: 'warn',
      text: "TLS verification off (--insecure): the agent's certificate was not checked; this verdict is for a connection nobody verified",
    });
  const t = c?.tls;
  if (t !== undefined) {
    const trust = {
      default: 'the default roots',
      'ca-cert': `the default roots and --ca-cert ${o.caCert ?? ''}`.trim(),
      off: 'nothing (--insecure)',
    }[t.verification];
    const client = t.clientCertificate ? `; client certificate ${o.clientCert ?? ''}`.trimEnd() : '';
    lines.push({
      tone: 'plain',
      text: `TLS ${t.protocol}${t.cipher ? ` (${t.cipher})` : ''}: certificate ${t.subject || '(no subject)'}, issued by ${t.issuer || '(unknown)'}, valid until ${t.validTo.slice(0, 10)} (${t.daysLeft} day(s)), verified against ${trust}${client}`,
    });
  }
  if (c?.proxy !== undefined)
    lines.push({
      tone: 'plain',
      text: `through the proxy ${c.proxy.url} (${c.proxy.source === 'option' ? '--proxy' : 'HTTPS_PROXY / HTTP_PROXY'})`,
    });
  if (o.headers !== undefined && o.headers.length > 0)
    lines.push({ tone: 'plain', text: `extra headers on every request: ${o.headers.join(', ')}` });
  for (const note of c?.notes ?? []) {
    // Verification off is said once, above.
    if (o.insecure === true && /--insecure/.test(note)) continue;
    lines.push({ tone: 'info', text: note });
  }
  return lines;
}
