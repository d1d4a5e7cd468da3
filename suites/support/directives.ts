// The `a2a:directive` contract (docs/directives.md): the text part that scripts a task's behaviour, the
// probe of whether the target honours it (so a check that needs scripted behaviour reports
// not-exercised on an agent that does not implement it; the contract is no spec requirement), and the
// facts of a directive reply.
import type { AnsweredExchange, CheckContext } from '../../harness/check/index.ts';
import { messageParams, textPart } from './messages.ts';
import { resultOf, type JsonObject } from './rpc.ts';
import { replyText } from './tasks.ts';
import { madeOnce, type MadeOnce } from './made-once.ts';

export interface DirectiveFields {
  delayMs?: number;
  progressSteps?: number;
  fail?: string;
  runUntilCanceled?: boolean;
  finishOnCancel?: boolean;
  echoFiles?: boolean;
  turn?: boolean;
  /** Fault fields (docs/directives.md): the task refuses resubscription while live. */
  streamable?: boolean;
  /** The task fails after its first event; the stream carries a JSON-RPC error event. */
  streamError?: boolean;
  /** message/send and message/stream answer -32603 and create no task. */
  internalError?: boolean;
}

/** The text part that carries a directive (docs/directives.md section 1). */
export function directivePart(fields: DirectiveFields): JsonObject {
  return textPart(`a2a:directive ${JSON.stringify(fields)}`);
}

/** Message parts: some text, plus the directive when given. */
export function scriptParts(text: string, directive?: DirectiveFields): JsonObject[] {
  return directive === undefined ? [textPart(text)] : [textPart(text), directivePart(directive)];
}

const honourByTarget = new Map<string, MadeOnce<boolean>>();

/**
 * Whether the target honours the directive contract: a `turn` directive must come back as the
 * documented reply lines. Probed once per target per suite file.
 */
export function directivesHonoured(c: CheckContext): Promise<boolean> {
  return madeOnce(honourByTarget, `${c.target.baseUrl} ${c.target.agentId}`, c, probeDirectives);
}

async function probeDirectives(c: CheckContext): Promise<boolean> {
  const ex = await c.client.rpc(
    'message/send',
    messageParams([textPart('probe'), directivePart({ turn: true })]),
  );
  const text = ex.response === undefined ? undefined : replyText(resultOf(ex as AnsweredExchange));
  return text !== undefined && text.startsWith('echo "probe"') && /\nturn 1(\n|$)/.test(text);
}

/** Ends the check as not-exercised when the target does not implement docs/directives.md. */
export async function requireDirectives(c: CheckContext, why: string): Promise<void> {
  if (!(await directivesHonoured(c))) {
    c.notExercised(
      `${why} needs the a2a:directive contract (docs/directives.md), which the target does not honour`,
    );
  }
}

/** The facts of a directive reply (docs/directives.md section 4): `<keyword> <compact JSON>` lines. */
export interface ReplyFacts {
  echo?: unknown;
  files: unknown[];
  turn?: unknown;
  history?: unknown;
}

export function replyFacts(text: string | undefined): ReplyFacts {
  const facts: ReplyFacts = { files: [] };
  for (const line of (text ?? '').split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const keyword = line.slice(0, space);
    let value: unknown;
    try {
      value = JSON.parse(line.slice(space + 1));
    } catch {
      continue;
    }
    if (keyword === 'file') facts.files.push(value);
    else if (keyword === 'echo' || keyword === 'turn' || keyword === 'history') facts[keyword] = value;
  }
  return facts;
}
