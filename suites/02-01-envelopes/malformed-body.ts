// Turns a generated malformed case (./malformed.ts) into the request body sent: a valid envelope and
// valid params from a template (spec 2.1-2.6), with exactly the one member the case breaks.
import { randomUUID } from 'node:crypto';
import type { MalformedCase, ParamsSpec } from './malformed.ts';
import { materialize, type Junk } from './malformed-values.ts';

export interface BodyContext {
  /** An existing finished task of the agent, so task-method faults are about params only. */
  taskId: string;
  /** A MIME type the agent accepts (C-22), so file faults are about the field under test only. */
  mimeType: string;
}

/** Builds the request body of a case. */
export function buildBody(k: MalformedCase, ctx: BodyContext): { text: string; id: unknown } {
  const body = k.body;
  if ('text' in body) return { text: body.text, id: null };
  // An unterminated method string: a request cut off after a huge prefix.
  if ('hugeText' in body)
    return { text: `{"jsonrpc":"2.0","id":"p2","method":"${'x'.repeat(body.hugeText)}`, id: null };
  if ('json' in body) return { text: JSON.stringify(materialize(body.json)), id: null };
  const env = body.envelope;
  const out: Record<string, unknown> = {};
  const id = member(env.id, `malformed-${randomUUID()}`);
  const jsonrpc = member(env.jsonrpc, '2.0');
  if (jsonrpc !== undefined) out.jsonrpc = jsonrpc;
  if (id !== undefined) out.id = id;
  const method = member(env.method, undefined);
  if (method !== undefined) out.method = method;
  if (env.params !== undefined) out.params = buildParams(env.params, ctx);
  return { text: JSON.stringify(out), id };
}

/** undefined in the spec: the valid default; null: leave the member out. */
function member(spec: Junk | null | undefined, fallback: unknown): unknown {
  if (spec === undefined) return fallback;
  return spec === null ? undefined : materialize(spec);
}

function template(name: ParamsSpec['template'], ctx: BodyContext): Record<string, unknown> {
  const messageId = randomUUID();
  if (name === 'message')
    return { message: { role: 'user', messageId, parts: [{ type: 'text', text: 'malformed' }] } };
  if (name === 'message-file') {
    const file = { name: 'a.txt', mimeType: ctx.mimeType, bytes: 'aGk=' };
    return { message: { role: 'user', messageId, parts: [{ type: 'file', file }] } };
  }
  if (name === 'task') return { taskId: ctx.taskId };
  // Port 9 (discard) on loopback: never stored by a conforming target, harmless if it were.
  if (name === 'push-set') return { config: { url: 'http://127.0.0.1:9/malformed-never-stored' } };
  return {};
}

function buildParams(spec: ParamsSpec, ctx: BodyContext): unknown {
  if (spec.path.length === 0) return spec.value === null ? undefined : materialize(spec.value);
  const root = template(spec.template, ctx);
  let at: Record<string, unknown> = root;
  for (const key of spec.path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = spec.path.at(-1)!;
  if (spec.value === null) delete at[last];
  else at[last] = materialize(spec.value);
  return root;
}
