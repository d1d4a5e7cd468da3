// Generators of malformed requests (spec 2.1-2.6, C-02, C-11 to C-14): arbMalformedEnvelope breaks
// one envelope rule, arbMalformedParams one params field of a served method. Each case carries the
// ruled error code, id and data.field, and the ledger level of the rule it breaks.
import fc from 'fast-check';
import { METHODS } from '../../schemas/error-codes.ts';
import { CARD } from '../support/rpc.ts';
import {
  arbArray,
  arbBool,
  arbDeep,
  arbHuge,
  arbNull,
  arbNumber,
  arbObject,
  arbString,
  notJson,
  small,
  wrongTypeFor,
  type FieldType,
  type Junk,
} from './malformed-values.ts';

export type IdRule = 'null' | 'echo' | 'null-or-echo';

/** Params from a template with one path replaced (value) or removed (null). */
export interface ParamsSpec {
  template: 'message' | 'message-file' | 'task' | 'push-set' | 'none';
  path: string[];
  value: Junk | null;
}

export interface EnvelopeSpec {
  /** null: the member is left out; undefined: the valid default. */
  method: Junk | null;
  jsonrpc?: Junk | null;
  id?: Junk | null;
  params?: ParamsSpec;
}

export interface MalformedCase {
  fault: string;
  level: 'MUST' | 'SHOULD';
  codes: number[];
  id: IdRule;
  /** The ruled data.field of a -32602 (C-14). */
  field?: string;
  body: { text: string } | { hugeText: number } | { json: Junk } | { envelope: EnvelopeSpec };
}

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

function envelope(
  fault: string,
  level: MalformedCase['level'],
  codes: number[],
  id: IdRule,
  env: EnvelopeSpec,
  field?: string,
): MalformedCase {
  return { fault, level, codes, id, body: { envelope: env }, ...(field === undefined ? {} : { field }) };
}

function whole(fault: string, level: MalformedCase['level'], code: number, body: MalformedCase['body']) {
  return { fault, level, codes: [code], id: 'null' as const, body };
}

/** A string that is not JSON at all (C-02: -32700, id null). */
const arbNotJson: fc.Arbitrary<MalformedCase['body']> = fc
  .oneof(
    fc.constantFrom('', '{', '{"jsonrpc":"2.0","id":"p1","method":', "{'jsonrpc':'2.0'}", 'null null'),
    fc.string({ maxLength: 40 }).filter(notJson),
    fc.integer({ min: 1_000, max: 65_536 }).map((hugeText) => ({ hugeText })),
  )
  .map((b) => (typeof b === 'string' ? { text: b } : b));

/** An unknown method name: random, a wrong-case section 4 name, or huge (C-02: -32601). */
function arbUnknownMethod(served: readonly string[]): fc.Arbitrary<Junk> {
  const known = new Set<string>([...METHODS, ...served]);
  return fc.oneof(
    small(fc.string({ maxLength: 30 }).filter((m) => !known.has(m))),
    small(fc.constantFrom(...METHODS.map((m) => m.toUpperCase()), 'tasks/list', 'message/send/')),
    arbHuge,
  );
}

const card: Junk = { value: CARD };
const NOT_TWO = fc.oneof(
  small(fc.string({ maxLength: 10 }).filter((s) => s !== '2.0')),
  small(fc.constantFrom('1.0', '2', '2.0 ', 2, 2.0, '3.0')),
  wrongTypeFor.string,
  arbHuge,
);
const REFUSED_ID = fc.oneof(
  arbNull,
  arbBool,
  arbArray,
  arbObject,
  arbDeep('array'),
  small(fc.constantFrom(1.5, -0.25)),
);
const BATCH = fc.oneof(
  small(fc.constant([])),
  small(fc.constant([{ jsonrpc: '2.0', id: 'b1', method: CARD }])),
  small(fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 4 })),
  arbDeep('array'),
);
const PRIMITIVE = small(
  fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.boolean(), fc.constant(null)),
);

/** Envelope faults; the params are absent and the method is the card's unless the fault is there. */
export function arbMalformedEnvelope(served: readonly string[]): fc.Arbitrary<MalformedCase> {
  const either = [INVALID_REQUEST, INVALID_PARAMS];
  return fc.oneof(
    arbNotJson.map((body) => whole('body is not JSON', 'MUST', -32700, body)),
    PRIMITIVE.map((json) => whole('body is a JSON primitive', 'MUST', INVALID_REQUEST, { json })),
    fc.constant(
      envelope('jsonrpc missing', 'MUST', [INVALID_REQUEST], 'null-or-echo', { method: card, jsonrpc: null }),
    ),
    NOT_TWO.map((jsonrpc) =>
      envelope('jsonrpc not "2.0"', 'MUST', [INVALID_REQUEST], 'null-or-echo', { method: card, jsonrpc }),
    ),
    fc.constant(envelope('method missing', 'MUST', [INVALID_REQUEST], 'null-or-echo', { method: null })),
    wrongTypeFor.string.map((method) =>
      envelope('method not a string', 'MUST', [INVALID_REQUEST], 'null-or-echo', { method }),
    ),
    arbUnknownMethod(served).map((method) =>
      envelope('method outside section 4', 'MUST', [METHOD_NOT_FOUND], 'echo', { method }),
    ),
    fc.oneof(arbString, arbNumber, arbBool, arbNull).map((value) =>
      envelope('params a primitive', 'MUST', either, 'null-or-echo', {
        method: card,
        params: { template: 'none', path: [], value },
      }),
    ),
    BATCH.map((json) => whole('batch (array body)', 'SHOULD', INVALID_REQUEST, { json })),
    fc.constant(envelope('id missing', 'SHOULD', [INVALID_REQUEST], 'null', { method: card, id: null })),
    REFUSED_ID.map((id) =>
      envelope('id of a refused type', 'SHOULD', [INVALID_REQUEST], 'null', { method: card, id }),
    ),
  );
}

interface FieldRule {
  methods: readonly string[];
  template: ParamsSpec['template'];
  path: string[];
  type: FieldType;
  required: boolean;
  /** Huge strings are invalid values here too (not "user", not a UUID, not text/file). */
  hugeInvalid: boolean;
  fileUpload: boolean;
}

const SEND = ['message/send', 'message/stream'];
const TASK = ['tasks/get', 'tasks/cancel', 'tasks/resubscribe'];
const SET = ['tasks/pushNotificationConfig/set'];

type Flag = 'required' | 'huge' | 'file';
function rule(
  methods: string[],
  template: ParamsSpec['template'],
  path: string,
  type: FieldType,
  ...flags: Flag[]
): FieldRule {
  const has = (f: Flag) => flags.includes(f);
  return {
    methods,
    template,
    path: path.split('.'),
    type,
    required: has('required'),
    hugeInvalid: has('huge'),
    fileUpload: has('file'),
  };
}

const FIELDS: readonly FieldRule[] = [
  rule(SEND, 'message', 'message', 'object', 'required'),
  rule(SEND, 'message', 'message.role', 'string', 'required', 'huge'),
  rule(SEND, 'message', 'message.messageId', 'string', 'required', 'huge'),
  rule(SEND, 'message', 'message.parts', 'array', 'required'),
  rule(SEND, 'message', 'message.parts.0', 'object'),
  rule(SEND, 'message', 'message.parts.0.type', 'string', 'required', 'huge'),
  rule(SEND, 'message', 'message.parts.0.text', 'string', 'required'),
  rule(SEND, 'message-file', 'message.parts.0.file', 'object', 'required', 'file'),
  rule(SEND, 'message-file', 'message.parts.0.file.name', 'string', 'required', 'file'),
  rule(SEND, 'message-file', 'message.parts.0.file.mimeType', 'string', 'required', 'file'),
  rule(SEND, 'message-file', 'message.parts.0.file.bytes', 'string', 'required', 'file'),
  rule(SEND, 'message', 'contextId', 'string'),
  rule(SEND, 'message', 'sessionId', 'string'),
  rule(SEND, 'message', 'id', 'string'),
  rule(TASK, 'task', 'taskId', 'string', 'required'),
  rule(['tasks/cancel'], 'task', 'reason', 'string'),
  rule(['tasks/resubscribe'], 'task', 'includeHistory', 'boolean'),
  rule(SET, 'push-set', 'config', 'object', 'required'),
  rule(SET, 'push-set', 'config.url', 'string', 'required'),
  rule(SET, 'push-set', 'taskId', 'string'),
  rule(['tasks/pushNotificationConfig/get'], 'none', 'taskId', 'string'),
  rule([CARD], 'none', 'includeCapabilities', 'boolean'),
  rule([CARD], 'none', 'includeMetrics', 'boolean'),
];

/** C-14 field path: `message.parts[0].file` from ['message', 'parts', '0', 'file']. */
export function fieldPath(path: readonly string[]): string {
  return path.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

const REQUIRES_PARAMS = [...SEND, ...TASK, ...SET];

function faultsOf(r: FieldRule, methods: string[]): fc.Arbitrary<MalformedCase>[] {
  const method = fc.constantFrom(...methods).map((value): Junk => ({ value }));
  const field = fieldPath(r.path);
  const params = (value: Junk | null): ParamsSpec => ({ template: r.template, path: r.path, value });
  const bad = r.hugeInvalid ? fc.oneof(wrongTypeFor[r.type], arbHuge) : wrongTypeFor[r.type];
  const fault = (name: string, level: MalformedCase['level'], value: Junk | null) => (m: Junk) =>
    envelope(
      `${field} ${name}`,
      level,
      [INVALID_PARAMS],
      'echo',
      { method: m, params: params(value) },
      field,
    );
  const out = [fc.tuple(method, bad).map(([m, v]) => fault('of a wrong type or value', 'SHOULD', v)(m))];
  if (r.required) out.push(method.map(fault('missing', 'MUST', null)));
  return out;
}

/** Params faults of the served methods: missing (MUST), wrong type or invalid value (SHOULD). */
export function arbMalformedParams(
  served: readonly string[],
  fileUpload: boolean,
): fc.Arbitrary<MalformedCase> {
  const arbs: fc.Arbitrary<MalformedCase>[] = [];
  for (const r of FIELDS.filter((x) => fileUpload || !x.fileUpload)) {
    const methods = r.methods.filter((x) => served.includes(x));
    if (methods.length > 0) arbs.push(...faultsOf(r, methods));
  }
  const needing = REQUIRES_PARAMS.filter((x) => served.includes(x));
  if (needing.length > 0) {
    const absent = (value: string) =>
      envelope('params missing', 'MUST', [INVALID_PARAMS], 'echo', { method: { value } }, 'params');
    arbs.push(fc.constantFrom(...needing).map(absent));
  }
  const asArray = (value: string) =>
    envelope(
      'params an array',
      'MUST',
      [INVALID_PARAMS],
      'echo',
      { method: { value }, params: { template: 'none', path: [], value: { value: [] } } },
      'params',
    );
  return fc.oneof(...arbs, fc.constantFrom(...served).map(asArray));
}
