// The single Ajv (JSON Schema 2020-12) instance holding every schema of schemas/*.schema.json, each
// added and compiled once, on first use (compileAll: ahead): the reference server validates
// requests on its hot path and the harness validates responses, events and webhooks with it (spec 2, 6, 7).
import { readFileSync } from 'node:fs';
import { Ajv2020, type AnySchemaObject, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { SchemaTypes } from './generated/types.ts';

/** Every $id is this base plus `<name>.schema.json`; it is an identifier only, never fetched. */
export const SCHEMA_BASE = 'https://a2a-conformance.dev/schemas/';

/** The schema file stems (schemas/<name>.schema.json), grouped by spec section. */
export const SCHEMA_NAMES = [
  'common',
  'jsonrpc-request',
  'jsonrpc-response',
  'jsonrpc-success-response',
  'jsonrpc-error-response',
  'jsonrpc-error',
  'message',
  'agent-message',
  'part',
  'text-part',
  'file-part',
  'file',
  'message-params',
  'task',
  'task-status',
  'send-result',
  'stream-task',
  'stream-event',
  'tasks-get-params',
  'tasks-get-result',
  'tasks-cancel-params',
  'cancel-result',
  'tasks-resubscribe-params',
  'resubscribe-result',
  'webhook-config-input',
  'push-config-set-params',
  'push-config-set-result',
  'push-config-get-params',
  'push-config-get-result',
  'extended-card-params',
  'agent-extended-card',
  'webhook-headers',
  'webhook-payload',
  'report',
  'fleet-file',
  'fleet-shard',
  'fleet-report',
  'run-event',
  'link',
] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

/**
 * Added and compiled on first use, not at load: report.json's schema (reporters/) is for tools that
 * read reports and costs about half a second to compile, which every suite worker and the reference
 * server would otherwise pay without ever using it.
 */
const ON_DEMAND: ReadonlySet<SchemaName> = new Set<SchemaName>([
  'report',
  'fleet-file',
  'fleet-shard',
  'fleet-report',
  'run-event',
]);

export interface ValidationIssue {
  /** Dotted path of the offending value, e.g. `message.parts[0].file.bytes`; '' for the root. */
  path: string;
  /** The JSON Schema keyword that failed (`required`, `pattern`, `const`, `discriminator`, ...). */
  keyword: string;
  message: string;
}

export type ValidationResult = { valid: true } | { valid: false; errors: ValidationIssue[] };

export function schemaId(name: SchemaName): string {
  return `${SCHEMA_BASE}${name}.schema.json`;
}

export function schemaFileUrl(name: SchemaName): URL {
  return new URL(`./${name}.schema.json`, import.meta.url);
}

export function loadSchema(name: SchemaName): AnySchemaObject {
  return JSON.parse(readFileSync(schemaFileUrl(name), 'utf8')) as AnySchemaObject;
}

function compiled(ajv: Ajv2020, name: SchemaName): ValidateFunction {
  const validator = ajv.getSchema(schemaId(name));
  if (validator === undefined) throw new Error(`schema ${name} did not compile`);
  return validator;
}

// discriminator: Part, JsonRpcRequest and WebhookPayload select their branch by a tag property,
// so a bad text part reports `text` missing instead of every branch's failures.
// allowUnionTypes: ids are `string | integer` (C-13); every other strict check stays on.
const AJV = new Ajv2020({ strict: true, allErrors: true, discriminator: true, allowUnionTypes: true });
addFormatsModule.default(AJV);
const VALIDATORS = new Map<SchemaName, ValidateFunction>();
const KNOWN: ReadonlySet<string> = new Set<string>(SCHEMA_NAMES);
let wireAdded = false;
let onDemandAdded = false;

/**
 * Adds the schemas `name` may refer to, once: the wire's together, and the report files' together
 * beside them (they refer to each other's $defs, fleet.json to shard.json and report.json).
 */
function addFor(name: SchemaName): void {
  if (!wireAdded)
    for (const other of SCHEMA_NAMES) if (!ON_DEMAND.has(other)) AJV.addSchema(loadSchema(other));
  wireAdded = true;
  if (!ON_DEMAND.has(name) || onDemandAdded) return;
  for (const other of ON_DEMAND) AJV.addSchema(loadSchema(other));
  onDemandAdded = true;
}

/**
 * The compiled Ajv validator of one schema (shared; do not hold on to its `errors` array). Each is
 * compiled on its first use, not at load: most importers (a test file, a suite worker, a CLI
 * command that lists the ledger) validate against a few schemas or none, and compiling all of them
 * cost every importer about a quarter of a second. `compileAll` compiles them ahead (the reference
 * server at start, so no request pays for it).
 */
export function getValidator(name: SchemaName): ValidateFunction {
  let validator = VALIDATORS.get(name);
  if (validator === undefined) {
    if (!KNOWN.has(name)) throw new Error(`unknown schema name: ${String(name)}`);
    addFor(name);
    validator = compiled(AJV, name);
    VALIDATORS.set(name, validator);
  }
  return validator;
}

/** Compiles every schema of the wire (all but the report files'), ahead of their first use. */
export function compileAll(): void {
  for (const name of SCHEMA_NAMES) if (!ON_DEMAND.has(name)) getValidator(name);
}

export function validate(name: SchemaName, value: unknown): ValidationResult {
  const validator = getValidator(name);
  if (validator(value)) return { valid: true };
  return { valid: false, errors: toIssues(validator.errors ?? [], value) };
}

/**
 * The validator of one part of a schema, by JSON pointer (`/$defs/admit/properties/request`): the
 * link's messages (link.schema.json) are parts of one file. Compiled on first use and kept.
 */
export function getPartValidator(name: SchemaName, pointer: string): ValidateFunction {
  getValidator(name);
  const validator = AJV.getSchema(`${schemaId(name)}#${pointer}`);
  if (validator === undefined) throw new Error(`no part ${pointer} in schema ${name}`);
  return validator;
}

/** `validate` against one part of a schema (getPartValidator). */
export function validatePart(name: SchemaName, pointer: string, value: unknown): ValidationResult {
  const validator = getPartValidator(name, pointer);
  if (validator(value)) return { valid: true };
  return { valid: false, errors: toIssues(validator.errors ?? [], value) };
}

/** Type guard over the generated types: true when `value` conforms to schema `name`. */
export function conforms<N extends SchemaName>(name: N, value: unknown): value is SchemaTypes[N] {
  return getValidator(name)(value);
}

function toIssues(errors: readonly ErrorObject[], root: unknown): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    // An `if` error only says "must match then"; the `then` errors beside it carry the detail.
    if (error.keyword === 'if') continue;
    const issue = { path: issuePath(error, root), keyword: error.keyword, message: error.message ?? '' };
    const key = `${issue.path}\u0000${issue.keyword}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/**
 * Ajv reports a missing or misnamed property at its parent object; the path names the property
 * itself, as the `field` of an Invalid params error does (C-14).
 */
function issuePath(error: ErrorObject, root: unknown): string {
  const segments = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const named =
    (error as { propertyName?: unknown }).propertyName ??
    params.missingProperty ??
    params.additionalProperty ??
    params.propertyName ??
    (error.keyword === 'discriminator' ? params.tag : undefined);
  if (typeof named === 'string') segments.push(named);
  return toDottedPath(segments, root);
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** `['message','parts','0','text']` -> `message.parts[0].text`; indices only where the value is an array. */
export function toDottedPath(segments: readonly string[], root: unknown): string {
  let path = '';
  let node: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path === '' ? segment : `.${segment}`;
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return path;
}
