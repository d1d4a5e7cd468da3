// The rows of the option table (harness/option-table.ts) that shape a run: what it checks (level,
// selection, profile, properties) and its pace and time (the request pace, turns, waits, budgets).
import { POSITIVE, TEXT, type OptionGroup } from './option-spec.ts';
import { VALUE } from './option-values.ts';

const LEVELS = ['must', 'should', 'all'] as const;
/** The run profiles (--profile), lightest first. */
export const PROFILES = ['smoke', 'standard', 'full'] as const;

/** What the run checks. */
export const SHAPE = {
  title: 'What the run checks',
  rows: [
    {
      key: 'level',
      arg: '<level>',
      env: 'A2A_LEVEL',
      help: 'requirements to run and grade; should also fails the run on a SHOULD warning',
      default: 'all',
      choices: LEVELS,
      schema: { enum: LEVELS },
      action: { description: 'Requirements to run and gate: must, should or all (--level)' },
      value: VALUE.choice(LEVELS),
      composed: 'must by default with --profile smoke',
    },
    {
      key: 'only',
      arg: '<glob>',
      env: 'A2A_ONLY',
      help: 'requirement ids or sections to run, e.g. "2.1/*" or 4.4',
      repeatable: true,
      schema: { oneOf: [TEXT, { type: 'array', items: TEXT }] },
      action: { description: 'Requirement ids or sections, comma-separated (--only), e.g. 4.4/*,7/*' },
      value: VALUE.globs,
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
      value: VALUE.choice(PROFILES),
      composed: 'the default depends on --target',
    },
    {
      key: 'seed',
      arg: '<n>',
      env: 'A2A_SEED',
      help: 'fast-check seed (recorded in the report, so a failure replays)',
      defaultText: 'random',
      schema: { type: 'integer' },
      value: VALUE.signed,
      composed: 'a random default',
    },
    {
      key: 'runs',
      arg: '<n>',
      env: 'A2A_RUNS',
      help: 'fast-check runs per property',
      // Per property: the suites hold five properties over requests, so a full run generates at least
      // 2,000 cases by default while staying around half a minute on two cores.
      default: 400,
      schema: POSITIVE,
      value: VALUE.positive,
    },
  ],
} as const satisfies OptionGroup;

/** Pace and time. */
export const PACING = {
  title: 'Pace and time',
  rows: [
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
      value: VALUE.pace,
      optional: true,
    },
    {
      key: 'concurrency',
      arg: '<n>',
      env: 'A2A_CONCURRENCY',
      help: 'requests in flight at once',
      // Above what the suites' concurrent checks and the rate-limit burst open together, so the
      // bundled run keeps its speed.
      default: 32,
      schema: POSITIVE,
      value: VALUE.positive,
      field: true,
    },
    {
      key: 'maxTurns',
      arg: '<n>',
      env: 'A2A_MAX_TURNS',
      help: 'cap on agent turns (requests that create a task); checks past it are not-exercised',
      schema: POSITIVE,
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
      key: 'timeoutMs',
      arg: '<n>',
      env: 'A2A_TIMEOUT_MS',
      help: 'budget of one request in ms',
      default: 10_000,
      schema: POSITIVE,
      value: VALUE.positive,
    },
    {
      key: 'coldStartMs',
      arg: '<n>',
      env: 'A2A_COLD_START_MS',
      help: "how long the probe waits for the target's first answer in ms (a cold start: an agent scaled to zero, a serverless function), resending while a front resets the connection or answers 502, 503 or 504; never less than --timeout-ms, nor more than --budget-ms",
      default: 60_000,
      schema: POSITIVE,
      more: "The probe says on the console when it starts waiting beyond --timeout-ms. The first answer's latency is reported apart (`reachability.firstAnswerMs` in report.json); the round trip and the turn latency the plan uses are measured on the warm agent. Only when nothing answers for this long is the target unreachable (exit 2); a refused connection, an unknown host or a TLS failure is unreachable at once.",
      value: VALUE.positive,
      composed: 'never less than --timeout-ms, nor more than --budget-ms',
    },
    {
      key: 'checkTimeoutMs',
      arg: '<n>',
      env: 'A2A_CHECK_TIMEOUT_MS',
      help: 'budget of one check in ms',
      defaultText: 'max(30000, 3 x timeout)',
      schema: POSITIVE,
      value: VALUE.positive,
      composed: 'the default depends on --timeout-ms',
    },
    {
      key: 'budgetMs',
      arg: '<n>',
      env: 'A2A_BUDGET_MS',
      help: 'budget of the whole run in ms; the plan fits every requirement in it first (MUST first when not all fit), then spends what is left on breadth',
      default: 600_000,
      defaultText: '600000 (300000 with --profile smoke)',
      schema: POSITIVE,
      value: VALUE.positive,
      composed: 'the default depends on --profile',
    },
  ],
} as const satisfies OptionGroup;
