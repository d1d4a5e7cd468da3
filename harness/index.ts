// Public API of the harness (the package's main entry): run a conformance run programmatically,
// register checks, and the result types every reporter reads. No suite imports it.
export { runConformance, runReceiver, runClient } from './runs.ts';
export { type RunOptions, type RunReporter } from './runner/run-conformance.ts';
export { TOOL } from './runner/tool.ts';
export type { ReceiverRunOptions } from './receiver/run-receiver.ts';
export type { ClientRunOptions } from './client/run-client.ts';
export { SCENARIOS, SCENARIO_TASKS, type Scenario } from './client/scenarios.ts';
// The check-writing names, for programs that define checks; the suites import harness/check/index.ts.
export {
  verifies,
  suiteFile,
  completeAnswer,
  NoAnswerError,
  is,
  typeOf,
  type VerifiesOptions,
  type CheckCost,
  type CheckDeclaration,
  type PlannedWait,
  type PropertyCost,
  type SuiteFileDeclaration,
  type CheckContext,
  type AnsweredExchange,
  type CheckFn,
  type CheckWebhooks,
  type Matcher,
} from './check/index.ts';
export { ConfigError, ENV_VARS } from './options.ts';
export { foldVerdict, summarize, decideExit } from '../core/verdict.ts';
export { formatSummary } from '../reporters/console/console-summary.ts';
export type * from '../core/types.ts';
export { VERDICTS } from '../core/types.ts';
