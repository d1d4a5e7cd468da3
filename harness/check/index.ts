// The check-writing API: everything a conformance suite (suites/) takes from the harness, and the
// only module of the harness a suite imports (eslint.config.js enforces it). verifies() registers a
// check; the context, the matchers and the recorder's stop are what a check works with; the wire
// types and readers are those of the evidence it records (harness/README.md, Writing a check).
export { declareSample, suiteFile, verifies, type VerifiesOptions } from './verifies.ts';
export type { CheckCost, CheckDeclaration, PlannedWait, PropertyCost, SuiteFileDeclaration } from './cost.ts';
export { NoAnswerError, requireAnswer, type CheckContext } from './context.ts';
export { completeAnswer, type AnsweredExchange } from '../io/target/faults.ts';
export { DEFAULT_MAX_WAIT_MS } from './agent-time.ts';
export { SIDE_BY_SIDE, type EachOptions } from './cases.ts';
export { is, typeOf, type Matcher } from './matchers.ts';
export { isNotExercisedStop } from './recorder.ts';
export type { CheckFn } from './run-check.ts';
export { closeSharedReceiver, type CheckWebhooks } from './webhooks.ts';
export { LATE_TOLERANCE_MS, type DeliveryMatch } from './expectations.ts';
export {
  deliveryIsEvent,
  deliveryOfTask,
  distinctDeliveries,
  summarizeDeliveries,
} from '../io/webhooks/webhook-receiver.ts';
export type { ProvidedRun } from '../provided.ts';
export { cardClaims } from '../capabilities.ts';
export { methodOf } from '../analysis/findings.ts';
export type { Delivery, Exchange, SseEvent, StreamTranscript } from '../../core/evidence.ts';
export { retryAfterMs } from '../io/traffic/rate-limited.ts';
export { paceCap } from '../io/traffic/pace.ts';
export { BURST_MAX_LIMIT, sendBurstRequest } from './burst-request.ts';
export type { SseStream } from '../io/target/sse-reader.ts';
export type { RpcOptions, StreamOptions, TargetClient } from '../io/target/target-client.ts';
export type { ScriptedResponse } from '../io/webhooks/webhook-receiver.ts';
export { verifySignature } from '../io/webhooks/webhook-signature.ts';
export { basePathOf } from '../io/target/request-spec.ts';
