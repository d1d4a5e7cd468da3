// Ledger, section 7 (Errors): the error object, the JSON-RPC 2.0 codes the spec inherits, the
// service's -3200x codes with their data, and HTTP status of errors. Data only (requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_7: readonly Requirement[] = [
  {
    id: '7/error-object',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour: 'An error response carries an `error` object with the members `code` and `message`.',
    source: {
      origin: 'JSON-RPC 2.0, section 5.1',
      quote:
        'When a rpc call encounters an error, the Response Object MUST contain the error member with a value that is a Object',
    },
  },
  {
    id: '7/error-code-integer',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour: '`error.code` is an integer.',
    source: {
      origin: 'JSON-RPC 2.0, section 5.1',
      quote: 'A Number that indicates the error type that occurred. This MUST be an integer.',
    },
  },
  {
    id: '7/error-message-string',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour: '`error.message` is a human-readable string.',
    source: { line: 334, quote: '| error.message | string | Human-readable text |' },
  },
  {
    id: '7/error-data-object',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour: '`error.data`, when present, is an object.',
    source: { line: 335, quote: '| error.data | object | Extra details, optional |' },
    rulings: ['C-40'],
  },
  {
    id: '7/parse-error-code',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour: 'A body that is not valid JSON is answered with error -32700 and id null.',
    source: {
      origin: 'JSON-RPC 2.0, section 5.1',
      quote: '-32700 | Parse error | Invalid JSON was received by the server.',
    },
    rulings: ['C-02'],
  },
  {
    id: '7/invalid-request-code',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'Valid JSON that is not a valid request object, such as a jsonrpc other than "2.0" or a missing method, is answered with error -32600.',
    source: {
      origin: 'JSON-RPC 2.0, section 5.1',
      quote: '-32600 | Invalid Request | The JSON sent is not a valid Request object.',
    },
    rulings: ['C-02'],
  },
  {
    id: '7/method-not-found-code',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A method the agent does not serve is answered with error -32601, the request id echoed and data.method naming it.',
    source: {
      origin: 'JSON-RPC 2.0, section 5.1',
      quote: '-32601 | Method not found | The method does not exist / is not available.',
    },
    rulings: ['C-02', 'C-41'],
  },
  {
    id: '7/invalid-params-code',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'Params a method cannot accept because a required member is missing are answered with error -32602.',
    source: {
      origin: 'JSON-RPC 2.0, section 5.1',
      quote: '-32602 | Invalid params | Invalid method parameter(s).',
    },
    rulings: ['C-02', 'C-14'],
  },
  {
    id: '7/internal-error-code',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'An unexpected failure inside the server is answered with error -32603 in a well-formed response.',
    source: {
      origin: 'JSON-RPC 2.0, section 5.1',
      quote: '-32603 | Internal error | Internal JSON-RPC error.',
    },
    rulings: ['C-02'],
  },
  {
    id: '7/invalid-params-details',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'Every -32602 error for a missing field, on any method, carries data.details naming the field.',
    source: {
      line: 339,
      quote: 'A required field is missing, e.g. messageId; `error.data.details` names it',
    },
    rulings: ['C-14'],
  },
  {
    id: '7/invalid-params-field',
    section: '7',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'Every -32602 error carries data.field, the dotted path of the first offending field.',
    source: { line: 339, quote: '| -32602 | Invalid params |' },
    rulings: ['C-14'],
  },
  {
    id: '7/task-not-found-code',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'tasks/get, tasks/cancel and tasks/resubscribe with an unknown task id are answered with error -32000.',
    source: { line: 340, quote: '| -32000 | Task not found |' },
  },
  {
    id: '7/empty-task-id-error',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'tasks/get, tasks/cancel and tasks/resubscribe with an empty `taskId` are answered with error -32602 or -32000, never a result.',
    source: { line: 340, quote: 'Unknown task id;' },
    rulings: ['C-53'],
  },
  {
    id: '7/task-not-found-data',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour: 'A -32000 error carries data.taskId and data.suggestion.',
    source: { line: 340, quote: '`data` has taskId and a suggestion' },
  },
  {
    id: '7/cancellation-failed-data',
    section: '7',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A -32003 error carries data.taskId and data.currentState, the final state the task reached.',
    source: { line: 343, quote: '| -32003 | Cancellation failed |' },
    rulings: ['C-08'],
  },
  {
    id: '7/subscription-failed-data',
    section: '7',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A -32004 error carries data.taskId and data.reason.',
    source: { line: 344, quote: '| -32004 | Subscription failed | Task may not support streaming |' },
    rulings: ['C-41'],
  },
  {
    id: '7/no-5xx-for-deterministic-errors',
    section: '7',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'Deterministic errors such as invalid params or an unknown task are never sent with a 5xx status.',
    source: { line: 348, quote: 'Clients retry only transient errors (5xx).' },
    rulings: ['C-03'],
  },
  {
    id: '7/jsonrpc-errors-http-200',
    section: '7',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'JSON-RPC-level errors are sent with HTTP 200 and Content-Type application/json.',
    source: { line: 350, quote: 'The mapping of errors to HTTP status codes: not shown.' },
    rulings: ['C-03'],
  },
  {
    id: '7/transport-errors-http-status',
    section: '7',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'Transport-level conditions use their HTTP status: 401, 404, 405, 413, 415, 429 or 503.',
    source: { line: 350, quote: 'The mapping of errors to HTTP status codes' },
    rulings: ['C-03'],
  },
  {
    id: '7/error-body-always-jsonrpc',
    section: '7',
    role: 'service',
    level: 'MUST',
    behaviour: 'Every error response, whatever its HTTP status, carries a parsable JSON-RPC error body.',
    source: { line: 329, quote: 'Errors use the JSON-RPC error object in the response.' },
    rulings: ['C-03', 'C-32'],
  },
];
