// What a suite imports: verifies() and the matchers from the harness, plus small readers of
// JSON-RPC responses shared by the suites (spec 2.2, 7).
export {
  completeAnswer,
  NoAnswerError,
  suiteFile,
  verifies,
  is,
  typeOf,
  type CheckContext,
  type AnsweredExchange,
  isNotExercisedStop,
} from '../../harness/check/index.ts';
export { ERROR_CODES, METHODS } from '../../schemas/error-codes.ts';
export { errorOf, responseOf, type RpcResponse } from './rpc-response.ts';
export { basePathOf, CARD, requestId } from './rpc-request.ts';
export * from './messages.ts';
