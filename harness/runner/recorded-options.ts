// The options a service run records in report.json (RecordedOptions): what re-runs it, with every
// credential replaced by [redacted] and a proxy's userinfo dropped.
import { headerLine } from '../../core/redaction.ts';
import type { RecordedOptions } from '../../core/types.ts';
import { withoutCredentials } from '../io/target/network.ts';
import type { ResolvedRunOptions } from '../options.ts';

export function recordedOptions(opts: ResolvedRunOptions): RecordedOptions {
  const recorded: RecordedOptions = {
    level: opts.level,
    only: opts.only,
    timeoutMs: opts.timeoutMs,
    checkTimeoutMs: opts.checkTimeoutMs,
    budgetMs: opts.budgetMs,
    seed: opts.seed,
    runs: opts.runs,
    out: opts.out,
    webhookListen: `${opts.webhookListen.host}:${opts.webhookListen.port}`,
    webhookPublicUrl: opts.webhookPublicUrl ?? null,
    baseline: opts.baseline ?? null,
    evidence: opts.evidence,
  };
  if (opts.apiKey !== undefined) recorded.apiKey = '[redacted]';
  if (opts.bearer !== undefined) recorded.bearer = '[redacted]';
  const net = opts.network;
  if (net.caCert !== undefined) recorded.caCert = net.caCert;
  if (net.insecure === true) recorded.insecure = true;
  if (opts.failOnUnverified) recorded.failOnUnverified = true;
  if (net.clientCert !== undefined) recorded.clientCert = net.clientCert;
  if (net.clientKey !== undefined) recorded.clientKey = net.clientKey;
  if (opts.proxyOption !== undefined) recorded.proxy = withoutCredentials(opts.proxyOption);
  if (net.headers !== undefined) {
    const secret = new Set(net.secretHeaders ?? []);
    recorded.headers = Object.entries(net.headers).map(([n, v]) => headerLine(n, v, secret.has(n)));
  }
  return recorded;
}
