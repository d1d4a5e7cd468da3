// One `run --out DIR` end to end (the CLI in process) against a reference server with known
// credentials, restricted with --only to a few requirements of two webhook sections (their checks
// configure webhook secrets and headers): all seven report files are written, report.json conforms to schemas/report.schema.json,
// junit.xml parses, no credential appears anywhere, and `[redacted]` stands only where a credential
// was (the webhook secrets and header values the harness made up stay readable).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../reference-server/index.ts';
import { validate } from '../../schemas/registry.ts';
import { runArgv, runCli, type CliRun } from '../support/cli-run.ts';
import { REPORT_FILE_NAMES } from '../support/report-files.ts';

const API_KEY = `e2e-key-${randomBytes(12).toString('hex')}`;
const BEARER = `e2e-bearer-${randomBytes(12).toString('hex')}`;
// Checks of one suite file (suites/06-01-webhooks/agent-scope.test.ts) that configure a secret and a header.
const ONLY = [
  '6.2/configured-headers-sent',
  '6.2/signature-header',
  '6.2/user-agent',
  '6.4/signature-sha256-prefix',
];

/** A secret as it may appear on the wire: raw, escaped inside JSON, percent-encoded, base64. */
function forms(secret: string): string[] {
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
  ];
}

describe('run --out DIR against the reference server (--only four 6.2 and 6.4 requirements)', () => {
  const out = mkdtempSync(join(tmpdir(), 'a2a-e2e-'));
  let server: Awaited<ReturnType<typeof startReferenceServer>>;
  let ran: CliRun;
  let report: Record<string, unknown> & { requirements: { id: string; checks: unknown[] }[] };

  beforeAll(async () => {
    server = await startReferenceServer({
      allowPrivateWebhookTargets: true,
      agents: [{ id: 'e2e-agent', apiKeys: [API_KEY], bearerTokens: [BEARER] }],
    });
    const argv = runArgv(server.baseUrl, 'e2e-agent', API_KEY, '--bearer', BEARER, '--only', ONLY.join(','));
    argv.push('--out', out, '--seed', '7', '--runs', '3');
    argv.push('--evidence', 'all'); // the exchanges and deliveries of passing checks too
    ran = await runCli(argv);
    report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('passes the selected sections, printing progress and the summary', () => {
    expect(ran.stderr).toBe('');
    expect(ran.code, ran.stdout).toBe(0);
    expect(ran.stdout).toMatch(/\[ +\d+\.\ds\] 6\.2 6\.4 +suites\/06-01-webhooks\/agent-scope\.test\.ts \.+/);
    expect(ran.stdout).toContain('Summary by section');
    expect(ran.stdout).toMatch(/partial run \(--only\)\nexit 0: /);
  });

  it('writes all seven outputs into --out', () => {
    expect(readdirSync(out).sort()).toEqual(REPORT_FILE_NAMES);
    expect(ran.stdout).toContain(
      `reports: ${out} (report.json, junit.xml, report.html, summary.md, badge.svg, console.txt, report.har)`,
    );
  });

  it('writes a report.json that conforms to schemas/report.schema.json (and the schema can refuse)', () => {
    expect(validate('report', report)).toEqual({ valid: true });
    expect(report.requirements.map((r) => r.id).sort()).toEqual([...ONLY].sort());
    const broken = structuredClone(report) as typeof report & { options: { apiKey: string } };
    (broken.requirements[0] as unknown as { verdict: string }).verdict = 'maybe';
    broken.options.apiKey = API_KEY;
    const result = validate('report', broken);
    expect(result.valid).toBe(false);
    const paths = result.valid ? [] : result.errors.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['requirements[0].verdict', 'options.apiKey']));
  });

  it('writes a junit.xml that parses, one testsuite per section and one testcase per requirement', () => {
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (n) => n === 'testsuite' || n === 'testcase',
    }).parse(xml);
    const suites = doc.testsuites.testsuite as { name: string; testcase: unknown[] }[];
    expect(suites.map((s) => s.name)).toEqual(['6.2 Webhook request headers', '6.4 Signature']);
    expect(suites.reduce((n, s) => n + s.testcase.length, 0)).toBe(report.requirements.length);
  });

  it('configured webhook secrets and headers during the run, and recorded them as sent (made up: no secrets)', () => {
    const configs: { secret?: unknown; headers?: Record<string, unknown> }[] = [];
    JSON.stringify(report, (key, value) => {
      if (key === 'config' && value !== null && typeof value === 'object' && 'url' in value)
        configs.push(value);
      return value;
    });
    const secrets = configs.filter((c) => c.secret !== undefined).map((c) => c.secret);
    const headers = configs.flatMap((c) => Object.values(c.headers ?? {}));
    expect(secrets.length).toBeGreaterThan(0);
    expect(headers.length).toBeGreaterThan(0);
    for (const value of [...secrets, ...headers]) expect(value).toMatch(/^(?!\[redacted\]$)\S+$/);
  });

  it('writes [redacted] only where a credential was: request credential headers and credential options', () => {
    const at: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (typeof v === 'string' && v.includes('[redacted]')) at.push(path);
      else if (Array.isArray(v)) v.forEach((x) => walk(x, `${path}[]`));
      else if (v !== null && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    walk(report, '');
    const credentialPlaces = /(\.request\.headers\.(x-api-key|authorization)|\.options\.(apiKey|bearer))$/;
    expect(at.length).toBeGreaterThan(0);
    expect([...new Set(at.filter((p) => !credentialPlaces.test(p)))]).toEqual([]);
    // report.har holds the same request headers as report.json: only as a header value there.
    const har = readFileSync(join(out, 'report.har'), 'utf8');
    const harAt = [...har.matchAll(/"name": "([^"]+)",\s*"value": "[^"]*\[redacted\]/g)].map((m) => m[1]);
    expect([...new Set(harAt)].sort()).toEqual(['x-api-key']);
    expect(har.split('[redacted]').length - 1).toBe(harAt.length);
    for (const f of REPORT_FILE_NAMES.filter(
      (f) => !['report.json', 'report.html', 'report.har'].includes(f),
    ))
      expect(readFileSync(join(out, f), 'utf8'), f).not.toContain('[redacted]');
  });

  it('leaks no credential into any output file or the console', () => {
    const outputs = [
      ...REPORT_FILE_NAMES.map((f) => readFileSync(join(out, f), 'utf8')),
      ran.stdout,
      ran.stderr,
    ];
    for (const secret of [API_KEY, BEARER].flatMap(forms)) {
      for (const text of outputs) expect(text.includes(secret), secret).toBe(false);
    }
  });

  it('shows a configured webhook header value in the deliveries as the receiver got it', () => {
    const text = readFileSync(join(out, 'report.json'), 'utf8');
    const probe = [...text.matchAll(/"x-conformance-probe": "([^"]*)"/g)].map((m) => m[1]);
    expect(probe.length).toBeGreaterThan(0);
    for (const value of probe) expect(value).toMatch(/^[0-9a-f]{16,}$/);
  });
});
