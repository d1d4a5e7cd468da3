// Results against the spec's shapes (spec 2, 4; C-36): a value required to be a JSON object, a value
// validated against one of schemas/, recorded as a check whose actual is 'valid' or the validator's
// issues, and the fields a result carries beyond the spec's tables, tolerated and reported.
import { is, typeOf, type CheckContext } from '../../harness/check/index.ts';
import { isObject, type JsonObject } from '../../schemas/json.ts';
import { validate, type SchemaName } from '../../schemas/registry.ts';

/**
 * Requires `value` to be a JSON object and returns it as one: the check records the value's JSON type
 * under `label` (the value itself is in the exchange evidence) and ends failed when it is not an object.
 */
export function requireObject(c: CheckContext, label: string, value: unknown): JsonObject {
  c.require(label, typeOf(value), 'object');
  return value as JsonObject;
}

/**
 * Records a schema validation of `value` as a check: `actual` is 'valid' or the registry's issues;
 * `label` says what was validated (default: the schema's name).
 */
export function checkSchema(c: CheckContext, name: SchemaName, value: unknown, label?: string): boolean {
  const result = validate(name, value);
  const schema = `valid against schemas/${name}.schema.json`;
  return c.check(
    label === undefined ? schema : `${label}: ${schema}`,
    result.valid ? 'valid' : result.errors,
    is.where(schema, () => result.valid),
  );
}

/** Fields of results the spec lists (2.7 Task, 2.9, 2.10, 2.14 card); others are extras (C-36). */
const LISTED_FIELDS = [
  'id',
  'status',
  'contextId',
  'final',
  'createdAt',
  'updatedAt',
  'canceled',
  'subscribed',
];

/** Notes the fields a result carries beyond the spec's tables: tolerated, reported (C-36). */
export function reportExtras(c: CheckContext, label: string, value: unknown, listed = LISTED_FIELDS): void {
  const extra = isObject(value) ? Object.keys(value).filter((k) => !listed.includes(k)) : [];
  if (extra.length > 0) c.info(`${label} carries fields the spec does not list (tolerated, C-36)`, extra);
}

/**
 * A whole result against its schema, with the fields it carries beyond the spec's lists reported
 * first (tolerated, C-36): a schema miss is then read beside what the target added.
 */
export function checkSchemaWithExtras(
  c: CheckContext,
  name: SchemaName,
  value: unknown,
  label: string,
): boolean {
  reportExtras(c, label, value);
  return checkSchema(c, name, value, label);
}
