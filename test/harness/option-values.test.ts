// The option table's value kinds (harness/option-values.ts): what each takes from a flag, a variable
// or a config file, the ConfigError naming the option for each bad value, and parse(spell(v)) = v; then
// the table as a whole, and a reproduce line read back by the CLI into the run's own options.
import { resolve as absolute } from 'node:path';
import { parse as shellWords } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../harness/cli/program.ts';
import { flagLayer } from '../../harness/cli/run-command.ts';
import { OPTIONS, type OptionKey } from '../../harness/option-table.ts';
import { VALUE, type OptionValue } from '../../harness/option-values.ts';
import { ConfigError, resolveOptions, type RawOptions } from '../../harness/options.ts';
import { runSettings } from '../../harness/runner/run-settings.ts';
import { reproduceCommand } from '../../harness/reproduce.ts';

const name = { key: 'opt', env: 'A2A_OPT' };

interface Case {
  kind: OptionValue<unknown>;
  /** [given, parsed] */
  good: [unknown, unknown][];
  /** [given, message] */
  bad: [unknown, RegExp][];
}

const CASES: Record<string, Case> = {
  positive: {
    kind: VALUE.positive,
    good: [
      ['8', 8],
      [8, 8],
      [' 12 ', 12],
    ],
    bad: [
      ['0', /^opt must be an integer >= 1, got "0"$/],
      [1.5, /^opt must be an integer >= 1, got 1.5$/],
      ['ten', /^opt must be an integer >= 1, got "ten"$/],
      [null, /^opt must be an integer >= 1, got null$/],
    ],
  },
  signed: {
    kind: VALUE.signed,
    good: [
      ['-3', -3],
      [0, 0],
    ],
    bad: [['1e3', /^opt must be an integer >= -2147483648, got "1e3"$/]],
  },
  duration: {
    kind: VALUE.duration,
    good: [
      ['6m', 360_000],
      ['90s', 90_000],
      ['1500ms', 1500],
      ['1h', 3_600_000],
    ],
    bad: [
      ['5', /^opt must be a duration such as 90s, 5m or 1h, got "5"$/],
      [300, /^opt must be a duration such as 90s, 5m or 1h, got 300$/],
    ],
  },
  text: {
    kind: VALUE.text,
    good: [['echo', 'echo']],
    bad: [
      ['', /^opt must be a non-empty string$/],
      [3, /^opt must be a non-empty string$/],
    ],
  },
  path: {
    kind: VALUE.path,
    good: [
      ['ca.pem', absolute('ca.pem')],
      ['/etc/ca.pem', '/etc/ca.pem'],
    ],
    bad: [['', /^opt must be a non-empty string$/]],
  },
  toggle: {
    kind: VALUE.toggle,
    good: [
      [true, true],
      ['1', true],
      ['Yes', true],
      ['false', false],
      ['0', false],
      [false, false],
    ],
    bad: [
      ['maybe', /^opt must be true or false, got "maybe"$/],
      [1, /^opt must be true or false, got 1$/],
    ],
  },
  choice: {
    kind: VALUE.choice(['must', 'should', 'all']),
    good: [
      ['must', 'must'],
      ['ALL', 'all'],
    ],
    bad: [['strict', /^opt must be one of must, should, all; got "strict"$/]],
  },
  globs: {
    kind: VALUE.globs,
    good: [
      ['2.1/*, 7/parse-error-code', ['2.1/*', '7/parse-error-code']],
      [
        ['4.4', '7/*,8'],
        ['4.4', '7/*', '8'],
      ],
    ],
    bad: [
      [3, /^opt must be a glob string or a list of them$/],
      [['4.4', 1], /^opt must be a glob string or a list of them$/],
    ],
  },
  pace: {
    kind: VALUE.pace,
    good: [
      ['60/m', { limit: 60, windowMs: 60_000, source: 'option' }],
      ['2 / s', { limit: 2, windowMs: 1000, source: 'option' }],
      ['3600/h', { limit: 3600, windowMs: 3_600_000, source: 'option' }],
      ['OFF', null],
    ],
    bad: [
      ['60', /^opt must be <n>\/s, <n>\/m, <n>\/h \(n >= 1\) or off, got "60"$/],
      ['0/m', /^opt must be <n>\/s, <n>\/m, <n>\/h \(n >= 1\) or off, got "0\/m"$/],
    ],
  },
  baseUrl: {
    kind: VALUE.baseUrl,
    good: [
      ['https://agents.example/gw/', 'https://agents.example/gw'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ],
    bad: [
      ['nope', /^opt must be an absolute http\(s\) URL, got "nope"$/],
      ['ftp://x', /^opt must be an http: or https: URL, got "ftp:\/\/x"$/],
      ['http://h/a?x=1', /^--opt \(A2A_OPT\) is a base URL .* cannot carry a query string/],
      ['http://h/a#', /^--opt \(A2A_OPT\) is a base URL .* cannot carry a fragment/],
      ['', /^opt must be a non-empty string$/],
    ],
  },
  urls: {
    kind: VALUE.urls,
    good: [
      ['http://a:1, http://b:2/', ['http://a:1', 'http://b:2']],
      [
        ['http://a:1', 'http://b:2,http://c:3'],
        ['http://a:1', 'http://b:2', 'http://c:3'],
      ],
    ],
    bad: [
      [['10.0.0.5:8080'], /^opt must be http\(s\) base URLs, got "10.0.0.5:8080"$/],
      [7, /^opt must be http\(s\) base URLs, got 7$/],
    ],
  },
  proxyUrl: {
    kind: VALUE.proxyUrl,
    good: [['http://u:p@proxy:3128', 'http://u:p@proxy:3128']],
    bad: [
      ['proxy:3128', /^opt must be an http:\/\/ or https:\/\/ proxy URL/],
      ['not a url', /^opt must be a proxy URL such as/],
      // Refused without its credentials, even when it is no URL at all.
      ['http://user:s3cret@proxy:99999', /^opt must be a proxy URL such as .*, got 'http:\/\/proxy:99999'$/],
    ],
  },
  hostPort: {
    kind: VALUE.hostPort,
    good: [
      ['0.0.0.0:8099', { host: '0.0.0.0', port: 8099 }],
      ['[::1]:0', { host: '::1', port: 0 }],
    ],
    bad: [
      ['nope', /^opt must be host:port, got "nope"$/],
      ['h:70000', /^opt must be host:port, got "h:70000"$/],
    ],
  },
  headers: {
    kind: VALUE.headers,
    good: [
      ['X-Tenant: acme\nX-Route: a,b', { 'x-tenant': 'acme', 'x-route': 'a,b' }],
      [['X-A: 1'], { 'x-a': '1' }],
      [{ 'X-A': '1' }, { 'x-a': '1' }],
    ],
    bad: [
      [['no colon'], /^--opt must be name:value with an HTTP header name/],
      [['x-api-key: k'], /^--opt may not set x-api-key/],
      [{ 'X-A': 1 }, /^opt must be a list of "Name: value" strings or an object of header values$/],
    ],
  },
};

describe.each(Object.entries(CASES))('the %s kind', (_kind, { kind, good, bad }) => {
  it.each(good)('reads %j', (given, parsed) => {
    expect(kind.parse(given, name)).toEqual(parsed);
  });
  it.each(bad)('refuses %j with a ConfigError naming the option', (given, message) => {
    expect(() => kind.parse(given, name)).toThrow(ConfigError);
    expect(() => kind.parse(given, name)).toThrow(message);
  });
  it('gives back what it spells: parse(spell(v)) = v', () => {
    for (const [given] of good) {
      const value = kind.parse(given, name);
      const spelled = kind.spell(value);
      expect(kind.parse(spelled, name), JSON.stringify(given)).toEqual(value);
    }
  });
});

describe('the pace kind', () => {
  it('spells a window --rate cannot write per minute, rounded down', () => {
    expect(VALUE.pace.spell({ limit: 5, windowMs: 30_000, source: 'card' })).toBe('10/m');
    expect(VALUE.pace.spell({ limit: 1, windowMs: 120_000, source: 'card' })).toBe('1/m');
  });
});

describe('every row of the option table', () => {
  it.each(OPTIONS.map((o) => [o.key, o] as const))('%s: its default is a value of its kind', (_k, row) => {
    if (row.default === undefined) return;
    const value = row.value.parse(row.default, row);
    expect(row.value.parse(row.value.spell(value), row)).toEqual(value);
  });
});

describe('a reproduce line, read back by the CLI', () => {
  /** The run options the CLI resolves from a command line, as `run` would (without running). */
  function resolvedFrom(line: string): ReturnType<typeof resolveOptions> {
    const words = shellWords(line, { A2A_API_KEY: 'k' }).map(String);
    const program = buildProgram({ out: () => undefined, err: () => undefined, env: {} }, () => undefined);
    let flags: Record<string, unknown> = {};
    program.commands
      .find((c) => c.name() === 'run')!
      .action((f: Record<string, unknown>) => {
        flags = f;
      });
    program.parse(['node', 'a2a-conformance', ...words.slice(2)]);
    return resolveOptions({ flag: flagLayer(flags), env: {}, file: {} });
  }

  it('gives the run the same settings: the field rows, the network, the budgets, the selection', () => {
    const given: RawOptions = {
      target: 'http://127.0.0.1:1/gw',
      agentId: 'echo',
      apiKey: 'k',
      seed: '-7',
      runs: '9',
      profile: 'smoke',
      rate: '12/m',
      maxWait: '90s',
      maxTurns: '40',
      replica: ['http://10.0.0.5:8080', 'http://10.0.0.6:8080'],
      insecure: true,
      header: ['X-Tenant: acme, corp'],
      proxy: 'http://proxy:3128',
      timeoutMs: '20000',
      checkTimeoutMs: '45000',
      webhookPublicUrl: 'https://hooks.example/in',
    };
    const run = resolveOptions({ flag: given, env: {}, file: {} });
    const settings = runSettings(run, undefined);
    const line = reproduceCommand(
      {
        ...settings,
        authKind: 'api-key',
        field: { ...settings.field, pace: run.rate! },
        card: null,
      },
      '4.4/x',
    );
    const back = resolvedFrom(line);
    const same: (OptionKey | 'maxWaitMs' | 'replicas' | 'network')[] = [
      'target',
      'agentId',
      'seed',
      'runs',
      'profile',
      'rate',
      'maxWaitMs',
      'maxTurns',
      'replicas',
      'timeoutMs',
      'checkTimeoutMs',
      'webhookPublicUrl',
      'network',
    ];
    for (const key of same) expect(back[key as keyof typeof back], key).toEqual(run[key as keyof typeof run]);
    expect(back.only).toEqual(['4.4/x']);
  });
});
