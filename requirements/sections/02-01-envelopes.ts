// Ledger, sections 2 (resources in general), 2.1 (request envelope) and 2.2 (response envelope),
// with the JSON-RPC 2.0 rules the envelopes inherit. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_2_1_TO_2_2: readonly Requirement[] = [
  {
    id: '2/extra-fields-tolerated',
    section: '2',
    role: 'service',
    level: 'INFO',
    behaviour: 'Responses may carry fields the spec does not list, except where the spec forbids them.',
    source: { line: 18, quote: '## 2. Resources and their fields' },
    rulings: ['C-36'],
  },
  {
    id: '2.1/jsonrpc-required',
    section: '2.1',
    role: 'service',
    level: 'MUST',
    behaviour: 'A request without a `jsonrpc` member is answered with error -32600.',
    source: { line: 24, quote: '| jsonrpc | string | yes | Must be `2.0` |' },
    rulings: ['C-02'],
  },
  {
    id: '2.1/id-required',
    section: '2.1',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A request without an `id` member is answered with error -32600 and id null, and nothing is performed.',
    source: { line: 25, quote: '| id | string | yes |' },
    rulings: ['C-11'],
  },
  {
    id: '2.1/id-types',
    section: '2.1',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'An integer request id is echoed as a JSON number, and a null, boolean, object, array or fractional id is answered with error -32600 and id null.',
    source: {
      origin: 'JSON-RPC 2.0, section 4',
      quote:
        'An identifier established by the Client that MUST contain a String, Number, or NULL value if included.',
    },
    rulings: ['C-13', 'C-52'],
  },
  {
    id: '2.1/method-required',
    section: '2.1',
    role: 'service',
    level: 'MUST',
    behaviour: 'A request without a string `method` member is answered with error -32600.',
    source: { line: 26, quote: '| method | string | yes |' },
    rulings: ['C-02'],
  },
  {
    id: '2.1/method-from-section-4',
    section: '2.1',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A method name outside section 4, including a wrong-case variant of a section 4 name, is answered with error -32601.',
    source: { line: 26, quote: 'One of the methods in section 4' },
    rulings: ['C-02'],
  },
  {
    id: '2.1/params-required',
    section: '2.1',
    role: 'service',
    level: 'MUST',
    behaviour:
      'message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe and tasks/pushNotificationConfig/set without `params` are answered with error -32602.',
    source: {
      line: 27,
      quote:
        'yes for message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe, tasks/pushNotificationConfig/set',
    },
    rulings: ['C-14'],
  },
  {
    id: '2.1/params-optional',
    section: '2.1',
    role: 'service',
    level: 'MUST',
    behaviour:
      'tasks/pushNotificationConfig/get and agent/authenticatedExtendedCard succeed without `params`.',
    source: {
      line: 27,
      quote: 'optional for tasks/pushNotificationConfig/get and agent/authenticatedExtendedCard',
    },
  },
  {
    id: '2.1/params-object',
    section: '2.1',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A `params` array is answered with error -32602, and a primitive `params` with error -32600 or -32602.',
    source: { line: 27, quote: '| params | object |' },
    rulings: ['C-02', 'C-14'],
  },
  {
    id: '2.1/unknown-members-ignored',
    section: '2.1',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'Request members and params fields the spec does not list are ignored and never cause an error.',
    source: { line: 20, quote: '### 2.1 JSON-RPC request envelope (all methods)' },
    rulings: ['C-36'],
  },
  {
    id: '2.1/batch-not-supported',
    section: '2.1',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A batch request (a JSON array, empty or not) is answered with one error -32600 with id null and is not executed.',
    source: {
      origin: 'JSON-RPC 2.0, section 6',
      quote:
        'To send several Request objects at the same time, the Client MAY send an Array filled with Request objects.',
    },
    rulings: ['C-12'],
  },
  {
    id: '2.2/response-jsonrpc-version',
    section: '2.2',
    role: 'service',
    level: 'MUST',
    behaviour: 'Every response, error responses and SSE events included, carries `jsonrpc` "2.0".',
    source: { line: 33, quote: '| jsonrpc | string | Always `2.0` |' },
  },
  {
    id: '2.2/response-id-equals-request-id',
    section: '2.2',
    role: 'service',
    level: 'MUST',
    behaviour: 'Every response carries an `id` equal to the string request id.',
    source: { line: 34, quote: '| id | string | Equals the request `id` |' },
    rulings: ['C-13', 'C-52'],
  },
  {
    id: '2.2/id-null-when-unreadable',
    section: '2.2',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A parse error is answered with id null, and so is an invalid request whose id cannot be read.',
    source: {
      origin: 'JSON-RPC 2.0, section 5',
      quote:
        'If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null.',
    },
    rulings: ['C-02'],
  },
  {
    id: '2.2/result-on-success',
    section: '2.2',
    role: 'service',
    level: 'MUST',
    behaviour: 'A successful call is answered with a `result` object.',
    source: { line: 35, quote: '| result | object | Present on success |' },
  },
  {
    id: '2.2/error-on-failure',
    section: '2.2',
    role: 'service',
    level: 'MUST',
    behaviour: 'A failed call is answered with an `error` object.',
    source: { line: 36, quote: '| error | object | Present on failure (see section 7) |' },
  },
  {
    id: '2.2/result-xor-error',
    section: '2.2',
    role: 'service',
    level: 'MUST',
    behaviour: 'A response carries exactly one of `result` and `error`.',
    source: {
      origin: 'JSON-RPC 2.0, section 5',
      quote:
        'Either the result member or error member MUST be included, but both members MUST NOT be included.',
    },
  },
];
