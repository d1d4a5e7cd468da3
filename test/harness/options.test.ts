// Option resolution (harness/options.ts): precedence flags > env > config file > defaults, and
// clear ConfigErrors for bad values.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettings } from '../../harness/runner/run-settings.ts';
import {
  ConfigError,
  readConfigFile,
  readEnv,
  resolveOptions,
  type RawOptions,
} from '../../harness/options.ts';

const none: RawOptions = {};
const target = { target: 'http://127.0.0.1:1', agentId: 'a', apiKey: 'k' };

describe('resolveOptions precedence', () => {
  it('takes defaults when nothing is given', () => {
    const o = resolveOptions({ flag: none, env: none, file: none });
    expect(o).toMatchObject({
      out: './reports',
      level: 'all',
      only: [],
      timeoutMs: 10_000,
      runs: 400,
      budgetMs: 600_000,
    });
    expect(o.webhookListen).toEqual({ host: '127.0.0.1', port: 0 });
    expect(o.target).toBeUndefined();
    expect(Number.isInteger(o.seed)).toBe(true);
    expect(o.failOnUnverified).toBe(false);
  });

  it('gives --profile smoke a five-minute budget unless --budget-ms says otherwise', () => {
    expect(resolveOptions({ flag: { profile: 'smoke' }, env: none, file: none }).budgetMs).toBe(300_000);
    const given = resolveOptions({ flag: { profile: 'smoke', budgetMs: '900000' }, env: none, file: none });
    expect(given.budgetMs).toBe(900_000);
    expect(resolveOptions({ flag: { profile: 'standard' }, env: none, file: none }).budgetMs).toBe(600_000);
  });

  it('waits for a cold start no longer than the whole run may take, and no less than one request', () => {
    const opts = (flag: Record<string, string>) => resolveOptions({ flag, env: none, file: none });
    expect(opts({}).coldStartMs).toBe(60_000);
    expect(opts({ budgetMs: '30000' }).coldStartMs).toBe(30_000);
    expect(opts({ budgetMs: '30000', coldStartMs: '90000' }).coldStartMs).toBe(30_000);
    expect(opts({ budgetMs: '5000', timeoutMs: '8000' }).coldStartMs).toBe(8_000);
    expect(opts({ coldStartMs: '2000', timeoutMs: '8000' }).coldStartMs).toBe(8_000);
  });

  it('prefers flags over env over the config file, key by key', () => {
    const file = { ...target, level: 'must', timeoutMs: 1000, runs: 7, seed: 1 };
    const env = readEnv({ A2A_LEVEL: 'should', A2A_TIMEOUT_MS: '2000', A2A_SEED: '2' });
    const flag = { level: 'all', seed: '3' };
    const o = resolveOptions({ flag, env, file });
    expect(o).toMatchObject({
      level: 'all',
      timeoutMs: 2000,
      runs: 7,
      seed: 3,
      target: 'http://127.0.0.1:1',
    });
  });

  it('reads every A2A_* variable', () => {
    const env = readEnv({
      A2A_TARGET: 'https://x.example/',
      A2A_AGENT_ID: 'ag',
      A2A_BEARER: 'tok',
      A2A_OUT: '/tmp/r',
      A2A_ONLY: '2.1/*, 7/parse-error-code',
      A2A_WEBHOOK_LISTEN: '0.0.0.0:8099',
      A2A_WEBHOOK_PUBLIC_URL: 'https://hooks.example',
      A2A_RUNS: '5',
      A2A_BASELINE: 'old.json',
      A2A_FAIL_ON_UNVERIFIED: 'true',
    });
    const o = resolveOptions({ flag: none, env, file: none });
    expect(o).toMatchObject({
      target: 'https://x.example',
      agentId: 'ag',
      bearer: 'tok',
      out: '/tmp/r',
      only: ['2.1/*', '7/parse-error-code'],
      webhookListen: { host: '0.0.0.0', port: 8099 },
      webhookPublicUrl: 'https://hooks.example',
      runs: 5,
      baseline: 'old.json',
      failOnUnverified: true,
    });
    expect(resolveOptions({ flag: { failOnUnverified: true }, env: none, file: none }).failOnUnverified).toBe(
      true,
    );
  });

  it('lets a credential from a higher layer replace the other kind from a lower one', () => {
    const o = resolveOptions({
      flag: { bearer: 'b' },
      env: { apiKey: 'k' },
      file: { target: 'http://h', agentId: 'a' },
    });
    expect(o.bearer).toBe('b');
    expect(o.apiKey).toBeUndefined();
  });

  it('keeps an API key and a bearer token given in one layer: the key leads, the token is the alternate', () => {
    const o = resolveOptions({
      flag: { target: 'http://h', agentId: 'a', apiKey: 'k', bearer: 'b' },
      env: {},
      file: {},
    });
    expect(o.apiKey).toBe('k');
    expect(o.bearer).toBe('b');
    const run = runSettings(o, undefined);
    expect(run.auth).toEqual({ apiKey: 'k' });
    expect(run.alternateAuth).toEqual({ bearer: 'b' });
  });

  it.each([
    [{ flag: { level: 'strict' } }, /level must be one of/],
    [{ flag: { timeoutMs: 'soon' } }, /timeoutMs must be an integer/],
    [{ flag: { target: 'ftp://x' } }, /http: or https:/],
    [{ flag: { target: 'http://x' } }, /needs --agent-id/],
    [{ flag: { target: 'http://x', agentId: 'a' } }, /needs a credential/],
    [{ flag: { webhookListen: 'nope' } }, /host:port/],
    [{ flag: { ...target, target: 'http://h/gw/a2a?x=1' } }, /--target \(A2A_TARGET\) .* query string/],
    [{ flag: {}, env: { ...target, target: 'http://h/gw/a2a?' } }, /--target \(A2A_TARGET\) .* query string/],
    [{ flag: {}, file: { ...target, target: 'http://h/#frag' } }, /--target \(A2A_TARGET\) .* fragment/],
    [{ flag: { webhookPublicUrl: 'https://hooks.example/in?k=v' } }, /--webhook-public-url .* query string/],
  ])('rejects %j', (layers, message) => {
    expect(() => resolveOptions({ env: none, file: none, ...layers })).toThrow(message);
  });
});

describe('--replica', () => {
  it('reads repeated flags, a comma-separated variable and a config list, as base URLs', () => {
    const flag = resolveOptions({
      flag: { ...target, replica: ['http://10.0.0.5:8080/', 'http://10.0.0.6:8080'] },
      env: none,
      file: none,
    });
    expect(flag.replicas).toEqual(['http://10.0.0.5:8080', 'http://10.0.0.6:8080']);
    const env = resolveOptions({
      flag: target,
      env: readEnv({ A2A_REPLICAS: 'http://a:1, http://b:2' }),
      file: none,
    });
    expect(env.replicas).toEqual(['http://a:1', 'http://b:2']);
    expect(resolveOptions({ flag: target, env: none, file: none }).replicas).toBeNull();
    expect(runSettings(flag, undefined).field.replicas).toEqual([
      'http://10.0.0.5:8080',
      'http://10.0.0.6:8080',
    ]);
  });

  it('refuses what is not an http(s) base URL, naming the option', () => {
    expect(() =>
      resolveOptions({ flag: { ...target, replica: ['10.0.0.5:8080'] }, env: none, file: none }),
    ).toThrow(/replica must be http\(s\) base URLs/);
  });
});

describe('readConfigFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-opts-'));
  it('reads known keys and refuses unknown ones', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ target: 'http://h', runs: 3 }));
    expect(readConfigFile(good)).toEqual({ target: 'http://h', runs: 3 });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ tagret: 'http://h' }));
    expect(() => readConfigFile(bad)).toThrow(/unknown option\(s\) tagret/);
    expect(() => readConfigFile(join(dir, 'missing.json'))).toThrow(ConfigError);
  });
});

describe('the option table', () => {
  it('makes every run option: its flag, its variable and its default in --help, its config key', async () => {
    const { buildProgram } = await import('../../harness/cli/program.ts');
    const { OPTIONS, flagOf } = await import('../../harness/option-table.ts');
    const { ENV_VARS, DEFAULTS } = await import('../../harness/options.ts');
    const program = buildProgram({ out: () => undefined, err: () => undefined, env: {} }, () => undefined);
    const run = program.commands.find((c) => c.name() === 'run')!;
    const help = new Map(run.options.map((o) => [o.long!, o.description]));
    for (const row of OPTIONS) {
      const description = help.get(flagOf(row.key));
      expect(description, row.key).toContain(`env ${row.env}`);
      expect(ENV_VARS[row.key as keyof typeof ENV_VARS]).toBe(row.env);
      const def = row.default ?? row.defaultText;
      if (def !== undefined) expect(description, row.key).toContain(`default ${def}`);
      if (row.default !== undefined) expect(DEFAULTS[row.key as keyof typeof DEFAULTS]).toBe(row.default);
    }
    // The run command's own flags beside the table's: the config file, the console's two modes and
    // the version every command prints.
    const own = ['--config', '--quiet', '--verbose', '--version'];
    expect([...help.keys()].filter((f) => !own.includes(f))).toEqual(OPTIONS.map((o) => flagOf(o.key)));
  });
});
