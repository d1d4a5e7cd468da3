// Public API of the harness: run a conformance run programmatically, register checks, and the
// result types every reporter reads.
export { runConformance, TOOL, type RunOptions, type RunReporter } from './runner/run-conformance.ts';
export { runReceiver, type ReceiverRunOptions } from './receiver/run-receiver.ts';
export { runClient, type ClientRunOptions } from './client/run-client.ts';
export { SCENARIOS, SCENARIO_TASKS, type Scenario } from './client/scenarios.ts';
export { suiteFile, verifies, type VerifiesOptions } from './verifies.ts';
export type {
  CheckCost,
  CheckDeclaration,
  PlannedWait,
  PropertyCost,
  SuiteFileDeclaration,
} from './check/cost.ts';
export type { CheckContext, AnsweredExchange } from './check/context.ts';
export { completeAnswer, NoAnswerError } from './check/context.ts';
export type { CheckFn } from './check/run-check.ts';
export type { CheckWebhooks } from './check/webhooks.ts';
export { is, typeOf, type Matcher } from './check/matchers.ts';
export { ConfigError, ENV_VARS } from './options.ts';
export { foldVerdict, summarize, decideExit } from './verdict.ts';
export { formatSummary } from '../reporters/console/console-summary.ts';
export type * from './types.ts';
export { VERDICTS } from './types.ts';
