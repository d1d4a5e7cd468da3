// The schema files themselves: one per SCHEMA_NAMES entry, draft 2020-12, $id matching the file
// name under the local base, every $ref relative and resolving inside the schemas directory.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SCHEMA_BASE,
  SCHEMA_NAMES,
  getValidator,
  loadSchema,
  schemaId,
  type SchemaName,
} from '../../schemas/registry.ts';

const SCHEMAS_DIR = new URL('../../schemas/', import.meta.url);

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, out);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

/** Follows a JSON pointer fragment (`/$defs/x`) inside a schema; undefined when it leads nowhere. */
function resolvePointer(schema: unknown, fragment: string): unknown {
  if (fragment === '') return schema;
  let node = schema;
  for (const raw of fragment.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

describe('schema files', () => {
  it('SCHEMA_NAMES lists exactly the files schemas/*.schema.json', () => {
    const stems = readdirSync(SCHEMAS_DIR)
      .filter((f) => f.endsWith('.schema.json'))
      .map((f) => f.slice(0, -'.schema.json'.length));
    expect([...SCHEMA_NAMES].sort()).toEqual(stems.sort());
    expect(new Set(SCHEMA_NAMES).size).toBe(SCHEMA_NAMES.length);
  });

  it('schemas/README.md lists every schema', () => {
    const readme = readFileSync(new URL('README.md', SCHEMAS_DIR), 'utf8');
    for (const name of SCHEMA_NAMES) expect(readme).toContain(`\`${name}\``);
  });

  for (const name of SCHEMA_NAMES) {
    it(`${name}: draft 2020-12, $id matches the file, a title, compiles`, () => {
      const schema = loadSchema(name);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`${SCHEMA_BASE}${name}.schema.json`);
      expect(schema.$id).toBe(schemaId(name));
      expect(typeof schema.title).toBe('string');
      expect(typeof getValidator(name)).toBe('function');
    });

    it(`${name}: every $ref is relative and resolves inside the local base`, () => {
      for (const ref of collectRefs(loadSchema(name))) {
        expect(ref, `${name}: ${ref}`).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
        const resolved = new URL(ref, schemaId(name));
        expect(resolved.href.startsWith(SCHEMA_BASE), `${name}: ${ref}`).toBe(true);
        const target = resolved.href.slice(SCHEMA_BASE.length).split('#')[0] as string;
        expect(SCHEMA_NAMES, `${name}: ${ref}`).toContain(
          target.replace(/\.schema\.json$/, '') as SchemaName,
        );
        const targetSchema = loadSchema(target.replace(/\.schema\.json$/, '') as SchemaName);
        expect(resolvePointer(targetSchema, resolved.hash.slice(1)), `${name}: ${ref}`).toBeDefined();
      }
    });
  }

  it('every wire object names its TypeScript type with a title', () => {
    const titles = SCHEMA_NAMES.map((name) => loadSchema(name).title);
    const expected =
      `Task TaskStatus Message Part FilePart TextPart File JsonRpcRequest JsonRpcResponse JsonRpcError
      CancelResult ResubscribeResult WebhookConfigInput PushConfigSetResult PushConfigGetResult AgentExtendedCard
      WebhookPayload`.split(/\s+/);
    expect(titles).toEqual(expect.arrayContaining(expected));
  });

  it('the enums of the schemas equal the frozen tables of error-codes.ts', async () => {
    const { TASK_STATES, WEBHOOK_EVENTS, METHODS } = await import('../../schemas/error-codes.ts');
    const defs = loadSchema('common').$defs as Record<string, { enum: string[] }>;
    expect(defs.taskState?.enum).toEqual([...TASK_STATES]);
    expect(defs.webhookEvent?.enum).toEqual([...WEBHOOK_EVENTS]);
    const requestDefs = loadSchema('jsonrpc-request').$defs as Record<
      string,
      { properties: { method: { const: string } } }
    >;
    expect(Object.values(requestDefs).map((d) => d.properties.method.const)).toEqual([...METHODS]);
  });
});
