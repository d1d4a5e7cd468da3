// The options of `a2a-conformance run`, once. Everything else about them is made from this table: the
// commander options and their help (harness/cli/program.ts), the A2A_* environment variables and the
// config-file keys (harness/options.ts), the fleet file's run options (schemas/fleet-file.schema.json),
// the option reference (docs/options.md), the GitHub Action's inputs (action.yml) and, for a row with
// a `value`, its parsing, its place in the run's settings and its flag in the reproduce lines. To add
// an option: add a row with a `value` (and `field`, `reproduce` as it needs), read it where it is used,
// then `npm run gen:options` (`npm run gen:options:check`, in CI, fails when a generated place drifted).
import { VALUE, type OptionValue } from './option-values.ts';
import { REPORT_FILE_LIST } from '../core/report-files.ts';

/** A JSON Schema fragment for the option's value in a config or fleet file. */
export type ValueSchema = Record<string, unknown>;

export interface OptionSpec {
  /** The config-file key (camelCase); the flag is its kebab-case form. */
  key: string;
  /** The value's name in usage (`<n>`); absent for a switch. */
  arg?: string;
  env: string;
  /** What it does, for --help and the reference: no default, no variable (they are added). */
  help: string;
  /** The default when it is one value (used by resolveOptions through DEFAULTS); defaultText, when given, says it in the help. */
  default?: string | number;
  /** The default when it depends on other options, in words. */
  defaultText?: string;
  choices?: readonly string[];
  /** Given several times, or comma-separated in the environment. */
  repeatable?: boolean;
  /** In the environment and the Action, one value a line instead of comma-separated (values hold commas). */
  lines?: boolean;
  /** The value in a config or fleet file. */
  schema: ValueSchema;
  /** Set by the fleet for each agent: not allowed in the fleet file's run options. */
  perAgent?: boolean;
  /** A credential or other secret: masked in the Action's log. */
  secret?: boolean;
  /** An input of the GitHub Action, named as the flag without its dashes. */
  action?: { description: string; default?: string };
  /** More for the option reference (docs/options.md) than --help says. */
  more?: string;
  /**
   * How the value is read and written back (harness/option-values.ts): a row with one is resolved by
   * the table alone (harness/options.ts tableValues()), to its `default` or, without one, null.
   */
  value?: OptionValue<unknown>;
  /** The resolved option's name when it is not the key (`maxWait` resolves to `maxWaitMs`). */
  as?: string;
  /** Handed to every check as the run's `field` settings (harness/provided.ts, FieldSettings). */
  field?: true;
  /** Changes what a check does: a reproduce line repeats it when it is not the default (harness/reproduce.ts). */
  reproduce?: true;
}

const positive: ValueSchema = { type: 'integer', minimum: 1 };
const text: ValueSchema = { type: 'string', minLength: 1 };
const LEVELS = ['must', 'should', 'all'] as const;
/** The run profiles (--profile), lightest first. */
export const PROFILES = ['smoke', 'standard', 'full'] as const;
const EVIDENCE = ['all', 'failing', 'none'] as const;

export const RUN_OPTIONS = [
  {
    key: 'target',
    arg: '<base_url>',
    env: 'A2A_TARGET',
    help: 'base URL of the service, e.g. https://agents.example.com',
    defaultText: 'the bundled reference server on a free port',
    schema: { type: 'string', pattern: '^https?://' },
    perAgent: true,
    action: {
      description: "The service's base URL (--target); empty certifies the bundled reference server",
    },
  },
  {
    key: 'agentId',
    arg: '<id>',
    env: 'A2A_AGENT_ID',
    help: 'agent to certify',
    schema: text,
    perAgent: true,
    action: { description: 'The agent to certify (--agent-id)' },
  },
  {
    key: 'apiKey',
    arg: '<key>',
    env: 'A2A_API_KEY',
    help: 'API key sent as x-api-key',
    schema: text,
    perAgent: true,
    secret: true,
    action: { description: 'API key sent as x-api-key (--api-key); pass a secret' },
  },
  {
    key: 'bearer',
    arg: '<token>',
    env: 'A2A_BEARER',
    help: 'token sent as Authorization: Bearer; given with --api-key, used only to check that both header forms are accepted',
    schema: text,
    perAgent: true,
    secret: true,
    action: { description: 'Token sent as Authorization Bearer (--bearer); pass a secret' },
  },
  {
    key: 'out',
    arg: '<dir>',
    env: 'A2A_OUT',
    help: `directory for the report files, created if missing and checked before the first request (a file or a place that cannot be written exits 2): ${REPORT_FILE_LIST}`,
    default: './reports',
    schema: text,
    perAgent: true,
    action: {
      description: `Directory for the report files (--out): ${REPORT_FILE_LIST}`,
      default: 'a2a-reports',
    },
  },
  {
    key: 'level',
    arg: '<level>',
    env: 'A2A_LEVEL',
    help: 'requirements to run and grade; should also fails the run on a SHOULD warning',
    default: 'all',
    choices: LEVELS,
    schema: { enum: LEVELS },
    action: { description: 'Requirements to run and gate: must, should or all (--level)' },
  },
  {
    key: 'only',
    arg: '<glob>',
    env: 'A2A_ONLY',
    help: 'requirement ids or sections to run, e.g. "2.1/*" or 4.4',
    repeatable: true,
    schema: { oneOf: [text, { type: 'array', items: text }] },
    action: { description: 'Requirement ids or sections, comma-separated (--only), e.g. 4.4/*,7/*' },
  },
  {
    key: 'webhookListen',
    arg: '<host:port>',
    env: 'A2A_WEBHOOK_LISTEN',
    help: 'address of the webhook capture receiver',
    default: '127.0.0.1:0',
    schema: { description: 'host:port of the webhook capture receiver (default 127.0.0.1:0).', ...text },
    action: { description: 'host:port of the webhook capture receiver (--webhook-listen)' },
  },
  {
    key: 'webhookPublicUrl',
    arg: '<url>',
    env: 'A2A_WEBHOOK_PUBLIC_URL',
    help: 'URL the target must use to reach the receiver (behind NAT or in CI)',
    schema: text,
    action: { description: 'URL the target must call to reach that receiver (--webhook-public-url)' },
  },
  {
    key: 'timeoutMs',
    arg: '<n>',
    env: 'A2A_TIMEOUT_MS',
    help: 'budget of one request in ms',
    default: 10_000,
    schema: positive,
  },
  {
    key: 'coldStartMs',
    arg: '<n>',
    env: 'A2A_COLD_START_MS',
    help: "how long the probe waits for the target's first answer in ms (a cold start: an agent scaled to zero, a serverless function), resending while a front resets the connection or answers 502, 503 or 504; never less than --timeout-ms",
    default: 60_000,
    schema: positive,
    more: "The probe says on the console when it starts waiting beyond --timeout-ms. The first answer's latency is reported apart (`reachability.firstAnswerMs` in report.json); the round trip and the turn latency the plan uses are measured on the warm agent. Only when nothing answers for this long is the target unreachable (exit 2); a refused connection, an unknown host or a TLS failure is unreachable at once.",
  },
  {
    key: 'checkTimeoutMs',
    arg: '<n>',
    env: 'A2A_CHECK_TIMEOUT_MS',
    help: 'budget of one check in ms',
    defaultText: 'max(30000, 3 x timeout)',
    schema: positive,
  },
  {
    key: 'budgetMs',
    arg: '<n>',
    env: 'A2A_BUDGET_MS',
    help: 'budget of the whole run in ms; the plan fits every requirement in it first (MUST first when not all fit), then spends what is left on breadth',
    default: 600_000,
    defaultText: '600000 (300000 with --profile smoke)',
    schema: positive,
  },
  {
    key: 'seed',
    arg: '<n>',
    env: 'A2A_SEED',
    help: 'fast-check seed (recorded in the report, so a failure replays)',
    defaultText: 'random',
    schema: { type: 'integer' },
  },
  {
    key: 'runs',
    arg: '<n>',
    env: 'A2A_RUNS',
    help: 'fast-check runs per property',
    // Per property: the suites hold five properties over requests, so a full run generates at least
    // 2,000 cases by default while staying around half a minute on two cores.
    default: 400,
    schema: positive,
  },
  {
    key: 'baseline',
    arg: '<file>',
    env: 'A2A_BASELINE',
    help: 'expected failures: an earlier report.json or {"expectedFailures": [ids]}; a new failure or a listed one that now passes exits 1',
    schema: {
      description: "Expected failures; a relative path is read from the fleet file's directory.",
      ...text,
    },
    action: {
      description: 'Expected failures, an earlier report.json or {"expectedFailures":[...]} (--baseline)',
    },
  },
  {
    key: 'events',
    arg: '<file>',
    env: 'A2A_EVENTS',
    help: "write the run's events as they happen, one JSON line each (start, plan, each requirement's verdict once decided, status, faults, end) into <file>; - writes them to stdout and the console to stderr",
    schema: text,
    // One stream per run: the agents of a fleet would share one file.
    perAgent: true,
    more: 'Each line validates against `schemas/run-event.schema.json`; [the event stream](reports.md#the-event-stream) describes the events.',
  },
  {
    key: 'failOnUnverified',
    env: 'A2A_FAIL_ON_UNVERIFIED',
    help: "exit 1, not 0, when a MUST requirement was not exercised (the level unverified: a run cut by its budget, --max-turns or the agent's pace), so a CI job reading only the exit code does not pass a run that verified nothing; 1 or true in the variable",
    schema: {
      description: 'Exit 1 when a MUST requirement was not exercised (the level unverified).',
      type: 'boolean',
    },
    action: {
      description: "'true' fails the job when a MUST requirement was not exercised (--fail-on-unverified)",
    },
  },
  {
    key: 'evidence',
    arg: '<mode>',
    env: 'A2A_EVIDENCE',
    help: 'wire evidence kept in the reports: all, failing (only of checks that did not pass) or none',
    defaultText: 'failing with --target, all for the bundled server',
    choices: EVIDENCE,
    schema: {
      description: 'Wire evidence kept (default failing with a target, all for the bundled server).',
      enum: EVIDENCE,
    },
    action: {
      description:
        'Wire evidence kept in the reports: all, failing or none (--evidence; default failing with a target)',
    },
  },
  {
    key: 'rate',
    arg: '<n/unit>',
    env: 'A2A_RATE',
    help: 'pace of requests, e.g. 60/m or 2/s, or off',
    defaultText: "the card's limits.requestsPerMinute",
    schema: {
      description: 'Request pace of the run: `<n>/s`, `<n>/m`, `<n>/h` or `off`.',
      type: 'string',
      pattern: '^([0-9]+/(s|m|h)|off)$',
    },
  },
  {
    key: 'concurrency',
    arg: '<n>',
    env: 'A2A_CONCURRENCY',
    help: 'requests in flight at once',
    // Above what the suites' concurrent checks and the rate-limit burst open together, so the
    // bundled run keeps its speed.
    default: 32,
    schema: positive,
    value: VALUE.positive,
    field: true,
  },
  {
    key: 'profile',
    arg: '<profile>',
    env: 'A2A_PROFILE',
    help: 'agent turns to spend',
    defaultText: 'standard against --target, full for the bundled server',
    choices: PROFILES,
    schema: { enum: PROFILES },
    action: { description: 'Agent turns to spend: smoke, standard or full (--profile)' },
  },
  {
    key: 'maxTurns',
    arg: '<n>',
    env: 'A2A_MAX_TURNS',
    help: 'cap on agent turns (requests that create a task); checks past it are not-exercised',
    schema: positive,
    value: VALUE.positive,
    field: true,
    reproduce: true,
  },
  {
    key: 'maxWait',
    arg: '<duration>',
    env: 'A2A_MAX_WAIT',
    help: 'longest wait a check may plan, e.g. 6m for a 5-minute system timeout',
    defaultText: "the check's budget",
    schema: {
      description: 'Longest wait a check may plan, with its unit: `300s`, `5m`.',
      type: 'string',
      pattern: '^[0-9]+(ms|s|m|h)$',
    },
    value: VALUE.duration,
    as: 'maxWaitMs',
    field: true,
    reproduce: true,
  },
  {
    key: 'replica',
    arg: '<url>',
    env: 'A2A_REPLICAS',
    help: 'base URL of one replica of the agent behind --target (repeatable, two or more): the cross-replica checks make a task through one replica and read, cancel, resubscribe to and configure it through the others; without it they are not-applicable',
    repeatable: true,
    schema: {
      description:
        'Base URLs of the replicas behind the balanced target, each reachable on its own; two or more for the cross-replica checks.',
      type: 'array',
      items: { type: 'string', pattern: '^https?://' },
    },
    more: 'The same credentials and headers are sent to every replica. See [Certify a replicated agent](certify-replicas.md).',
    // One agent's replicas: never a run option shared by a fleet's agents.
    perAgent: true,
    value: VALUE.urls,
    as: 'replicas',
    field: true,
    reproduce: true,
  },
  {
    key: 'caCert',
    arg: '<pem>',
    env: 'A2A_CA_CERT',
    help: "PEM bundle of CA certificates trusted for the target's TLS, added to the default roots",
    schema: {
      description:
        "PEM bundle added to the default roots; a relative path is read from the fleet file's directory.",
      ...text,
    },
    action: {
      description:
        "Path of a PEM bundle trusted for the target's TLS, added to the default roots (--ca-cert)",
    },
  },
  {
    key: 'insecure',
    env: 'A2A_INSECURE',
    help: "do not verify the target's TLS certificate (development only; every report and the verdict line say so); 1 or true in the variable",
    schema: {
      description: "Do not verify the target's TLS certificate (development only).",
      type: 'boolean',
    },
    action: { description: "'true' skips TLS certificate verification (--insecure; development only)" },
  },
  {
    key: 'clientCert',
    arg: '<pem>',
    env: 'A2A_CLIENT_CERT',
    help: 'client certificate for a gateway that requires mutual TLS (PEM; may hold the key too)',
    schema: {
      description:
        "Client certificate for mutual TLS; a relative path is read from the fleet file's directory.",
      ...text,
    },
    action: {
      description: 'Path of the client certificate for a gateway that requires mutual TLS (--client-cert)',
    },
  },
  {
    key: 'clientKey',
    arg: '<pem>',
    env: 'A2A_CLIENT_KEY',
    help: "the client certificate's private key (PEM)",
    schema: {
      description: "The client certificate's key; a relative path is read from the fleet file's directory.",
      ...text,
    },
    action: { description: 'Path of its private key (--client-key)' },
  },
  {
    key: 'proxy',
    arg: '<url>',
    env: 'A2A_PROXY',
    help: 'forward proxy for every request to the target, loopback included; overrides HTTPS_PROXY, HTTP_PROXY and NO_PROXY',
    defaultText: 'HTTPS_PROXY / HTTP_PROXY with NO_PROXY, never for loopback',
    schema: { type: 'string', pattern: '^https?://' },
    action: {
      description:
        "Forward proxy for every request to the target (--proxy); without it the runner's HTTPS_PROXY / HTTP_PROXY / NO_PROXY apply",
    },
  },
  {
    key: 'header',
    arg: '<"Name: value">',
    env: 'A2A_HEADERS',
    help: 'header sent on every request to the target, e.g. "X-Tenant: acme"; a value whose name says key, token, secret, auth, session or cookie is redacted. The harness\'s own headers win: x-api-key, Authorization, Content-Type and Accept are refused, and a header a check sets for one request replaces this one there',
    repeatable: true,
    lines: true,
    schema: {
      description:
        "Headers sent on every request to the target, `Name: value`. A secret value belongs in the agent's secretHeadersEnv, not here.",
      oneOf: [
        { type: 'array', items: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+:" } },
        { type: 'object', additionalProperties: { type: 'string' } },
      ],
    },
    action: {
      description: "Headers sent on every request to the target, one 'Name: value' a line (--header)",
    },
  },
  {
    key: 'secretHeader',
    arg: '<"Name: value">',
    env: 'A2A_SECRET_HEADERS',
    help: 'as --header, its value redacted in every report and log whatever its name',
    repeatable: true,
    lines: true,
    schema: { type: 'array', items: text },
    // Set per agent from secretHeadersEnv: a secret is never written in the fleet file.
    perAgent: true,
    // Masked line by line by action.yml's certify step (a multi-line mask would print its tail).
    action: {
      description:
        "Headers whose values are secret, one 'Name: value' a line (--secret-header); pass a secret",
    },
  },
] as const satisfies readonly OptionSpec[];

export type OptionKey = (typeof RUN_OPTIONS)[number]['key'];

type Row = (typeof RUN_OPTIONS)[number];
type ValueRow = Extract<Row, { value: unknown }>;
type NameOf<R> = R extends { as: infer N extends string } ? N : R extends { key: infer K } ? K : never;
type ParsedOf<R> = R extends { value: OptionValue<infer T> } ? T : never;
type ValueOf<R> = R extends { default: unknown } ? ParsedOf<R> : ParsedOf<R> | null;

/** The options the table resolves alone (rows with a `value`), by their resolved names. */
export type TableValues = { [R in ValueRow as NameOf<R>]: ValueOf<R> };
/** Those handed to every check (`field: true`). */
export type FieldValues = { [R in Extract<ValueRow, { field: true }> as NameOf<R>]: ValueOf<R> };

/** The resolved name of a row: `as`, else its key. */
export function nameOf(row: OptionSpec): string {
  return row.as ?? row.key;
}

/** `timeoutMs` -> `--timeout-ms`. */
export function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** What follows the help text: its variable and its default. */
export function helpOf(o: OptionSpec): string {
  const def = o.defaultText ?? (o.default !== undefined ? String(o.default) : undefined);
  const repeat =
    o.repeatable !== true
      ? ''
      : `; repeatable, ${o.lines === true ? 'one a line' : 'comma-separated'} in the variable`;
  return `${o.help} (env ${o.env}${def === undefined ? '' : `; default ${def}`}${repeat})`;
}

/** The table as plain rows (for iteration; RUN_OPTIONS keeps the literal keys for OptionKey). */
export const OPTIONS: readonly OptionSpec[] = RUN_OPTIONS;

/**
 * Options of the `run` command line alone (no variable, no config key, no Action input): where the
 * other options are, and how much the console prints. program.ts adds them, docs/options.md lists them.
 */
export interface CommandLineOption {
  flag: string;
  arg?: string;
  help: string;
  /** The option it cannot be given with. */
  conflicts?: string;
}

export const COMMAND_LINE_OPTIONS: readonly CommandLineOption[] = [
  { flag: '--config', arg: '<file>', help: 'JSON file with any of the options above (camelCase keys)' },
  { flag: '--quiet', help: 'print only the findings, the verdict and the exit line', conflicts: 'verbose' },
  { flag: '--verbose', help: 'print every check as it ends, and every finding in full' },
];
