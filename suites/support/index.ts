// What every suite file imports: the check-writing API of the harness (verifies(), suiteFile(), the
// matchers, the context and evidence types) and the spec's error codes and method names. The suites'
// helpers live one concept per file beside it (docs/adding-a-requirement.md, Suite helpers):
// rpc.ts, calls.ts, errors.ts, card.ts, credentials.ts, messages.ts, directives.ts, tasks.ts,
// live-tasks.ts, ended-first.ts, samples.ts, streams.ts, webhooks.ts, deliveries.ts, schemas.ts,
// timestamps.ts, timing.ts.
export {
  completeAnswer,
  isNotExercisedStop,
  is,
  NoAnswerError,
  requireAnswer,
  SIDE_BY_SIDE,
  suiteFile,
  typeOf,
  verifies,
  verifySignature,
  type AnsweredExchange,
  type CheckContext,
  type Delivery,
  type Matcher,
} from '../../harness/check/index.ts';
export { ERROR_CODES, METHODS } from '../../schemas/error-codes.ts';
