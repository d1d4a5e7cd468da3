// One `run --out DIR` (the CLI in process) with secrets that are a letter and common words, against a
// reference server that accepts them: the key `k` (also its Bearer token), a secret header whose value
// is `working` (a task state the checks of 4.3 compare) and a target URL whose user information holds
// the password `task`. The
// verdicts are those of long keys (every selected requirement passes), no word of any report file or
// of the console is cut by `[redacted]`, and no credential is in clear anywhere (core/redaction.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../reference-server/index.ts';
import { runArgv, runCli, type CliRun } from '../support/cli-run.ts';
import { REPORT_FILE_NAMES } from '../support/report-files.ts';

const KEY = 'k';
const HEADER_SECRET = 'working';
const PASSWORD = 'task';
const ONLY = [
  '4.3/get-current-state',
  '5/api-key-accepted',
  '5/bearer-accepted',
  '5/bearer-scheme-case-insensitive',
];

/** A word cut by a marker: a letter or digit right against `[redacted]`. */
const CUT_WORD = /[\p{L}\p{N}_]\[redacted\]|\[redacted\][\p{L}\p{N}_]/u;

interface Report {
  options: Record<string, unknown>;
  target: { baseUrl: string };
  requirements: {
    id: string;
    verdict: string;
    checks: {
      reproduce: { command: string; curl?: string };
      evidence: { exchanges: { request: { url: string; headers: Record<string, string> } }[] };
    }[];
  }[];
}

describe('run with a one-letter key, a common-word token and a password in the target URL', () => {
  const out = mkdtempSync(join(tmpdir(), 'a2a-short-secrets-'));
  let server: Awaited<ReturnType<typeof startReferenceServer>>;
  let ran: CliRun;
  let files: Record<string, string>;
  let report: Report;

  beforeAll(async () => {
    server = await startReferenceServer({
      agents: [{ id: 'short-agent', apiKeys: [KEY], bearerTokens: [KEY] }],
    });
    const target = server.baseUrl.replace('://', `://user:${PASSWORD}@`);
    const argv = runArgv(target, 'short-agent', KEY, '--secret-header', `X-Gateway-Pass: ${HEADER_SECRET}`);
    argv.push('--only', ONLY.join(','), '--out', out, '--seed', '7', '--runs', '3', '--evidence', 'all');
    ran = await runCli([...argv, '--verbose']);
    files = Object.fromEntries(REPORT_FILE_NAMES.map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    report = JSON.parse(files['report.json']!) as Report;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('gives the verdicts of long keys: every selected requirement passes, exit 0', () => {
    expect(ran.stderr).toBe('');
    expect(ran.code, ran.stdout).toBe(0);
    expect(Object.fromEntries(report.requirements.map((r) => [r.id, r.verdict]))).toEqual(
      Object.fromEntries(ONLY.map((id) => [id, 'pass'])),
    );
  });

  it('cuts no word of any report file or of the console', () => {
    for (const [name, text] of Object.entries({ ...files, console: ran.stdout })) {
      const m = CUT_WORD.exec(text);
      expect(m === null ? null : text.slice(Math.max(0, m.index - 40), m.index + 40), name).toBeNull();
    }
  });

  it('redacts each credential where it stood: headers, options, the target URL', () => {
    const exchanges = report.requirements.flatMap((r) => r.checks.flatMap((c) => c.evidence.exchanges));
    expect(exchanges.length).toBeGreaterThan(0);
    for (const { request } of exchanges) {
      const key = request.headers['x-api-key'];
      if (key !== undefined) expect(key).toBe('[redacted]');
      expect(request.headers['x-gateway-pass']).toBe('[redacted]');
      const auth = request.headers.authorization;
      if (auth !== undefined) expect(auth).toMatch(/^bearer \[redacted\]$/i);
      expect(request.url).not.toContain(PASSWORD);
    }
    expect(report.options).toMatchObject({ apiKey: '[redacted]', headers: ['x-gateway-pass: [redacted]'] });
    const har = JSON.parse(files['report.har']!) as {
      log: { entries: { request: { url: string; headers: { name: string; value: string }[] } }[] };
    };
    const harHeaders = har.log.entries.flatMap((e) => e.request.headers);
    const credentials = harHeaders.filter((h) => /^(x-api-key|authorization)$/i.test(h.name));
    expect(credentials.length).toBeGreaterThan(0);
    for (const h of credentials) expect(h.value).toMatch(/^(bearer )?\[redacted\]$/i);
    expect(report.target.baseUrl).toBe(server.baseUrl.replace('://', '://[redacted]@'));
  });

  it('prints reproduce lines with placeholders, never a credential nor a cut flag', () => {
    for (const check of report.requirements.flatMap((r) => r.checks)) {
      const { command, curl } = check.reproduce;
      expect(command).toContain(`--target ${server.baseUrl} `);
      expect(command).toContain('--api-key "$A2A_API_KEY"');
      if (curl !== undefined) expect(curl).not.toMatch(/@|x-api-key: k'|Bearer k'|: working/);
    }
  });

  it('leaves no credential in clear in any file or the console', () => {
    const basic = Buffer.from(`user:${PASSWORD}`).toString('base64');
    for (const [name, text] of Object.entries({ ...files, console: ran.stdout })) {
      expect(text, name).not.toContain(`:${PASSWORD}@`);
      expect(text, name).not.toContain(basic);
      expect(text, name).not.toMatch(/x-api-key\\?"?: ?\\?"?k\b/);
      expect(text, name).not.toMatch(/Bearer k\b/i);
      expect(text, name).not.toMatch(/x-gateway-pass\\?"?: ?\\?"?working/i);
    }
  });
});
