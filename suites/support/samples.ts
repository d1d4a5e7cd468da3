// Samples: what a check needs made before it can look (a finished task, a task of each final state, a
// cancelled task, one message answered both ways), and the one way a suite file shares a sample among
// its checks: made once, by the first check that asks (its exchanges are that check's evidence), while
// later checks note where it came from and cite its exchanges. A sample returns data and records no
// assertion.
import { randomUUID } from 'node:crypto';
import {
  declareSample,
  is,
  NoAnswerError,
  type AnsweredExchange,
  type CheckContext,
  type CheckCost,
  type Exchange,
  type StreamTranscript,
} from '../../harness/check/index.ts';
import { servedMethods } from './card.ts';

// A sample a file shares by other means than sharedSample declares its name and cost with it.
export { declareSample };
import { directivePart, requireDirectives, scriptParts, type DirectiveFields } from './directives.ts';
import { endedBefore } from './ended-first.ts';
import { madeOnce, type MadeOnce } from './made-once.ts';
import { cancellableTask, cancelLive } from './live-tasks.ts';
import { messageParams, sendTask, sendText, textPart } from './messages.ts';
import { resultOf, resultOfEvent, type JsonObject } from './rpc.ts';
import { streamResults, streamToEnd } from './streams.ts';
import { awaitState, isFinalState, notSeenIn, stateOf } from './tasks.ts';

/** The cost of a check that reads one of its file's shared samples and sends nothing of its own. */
export const READS_A_SAMPLE: Readonly<CheckCost> = { requests: 0, turns: 0 };

/**
 * One sample per file, made by the first check that asks (its exchanges and deliveries are that
 * check's evidence); later checks note where it came from and cite the exchanges it was made of, so
 * that their own verdict shows them. `make` returns data and records nothing. `kind` and `cost` are
 * the sample's name and what making it costs the agent, declared for the file that calls this
 * (declareSample): checks reading it name it in verifies(..., { samples: [kind] }).
 */
export function sharedSample<T>(kind: string, cost: CheckCost, make: (c: CheckContext) => Promise<T>) {
  declareSample(kind, cost);
  let made: Promise<{ value: T; exchanges: Exchange[] }> | undefined;
  let origin = '';
  let maker: AbortSignal | undefined;
  return async (c: CheckContext): Promise<T> => {
    if (made === undefined) {
      origin = c.requirement.id;
      maker = c.signal;
      const before = new Set(c.exchanges());
      const mine = make(c).then((value) => ({
        value,
        exchanges: c.exchanges().filter((ex) => !before.has(ex)),
      }));
      made = mine;
      // A fault is no sample to share: the check run again after it (reruns.ts) makes it anew.
      mine.catch((e: unknown) => {
        if (e instanceof NoAnswerError && made === mine) made = undefined;
      });
      return (await mine).value;
    }
    c.info(`${kind}: the file's shared sample, first recorded as evidence by the check of ${origin}`);
    const { value, exchanges } = await c.awaitShared(made, maker);
    c.cite(exchanges);
    return value;
  };
}

const samples = new Map<string, MadeOnce<string>>();

/**
 * Declares the file's sampleTaskId sample (one message/send) and returns its name, for the checks
 * that read it: verifies(..., { samples: [name] }).
 */
export function declareSampleTask(): string {
  return declareSample('task made for the requests that need one', { requests: 1, turns: 1 });
}

/**
 * A finished task of the run's agent, created once per suite file (declared by declareSampleTask); a
 * fresh UUID if none could be.
 */
export function sampleTaskId(c: CheckContext): Promise<string> {
  return madeOnce(samples, `${c.target.baseUrl} ${c.target.agentId}`, c, (c) =>
    c.client.rpc('message/send', messageParams([textPart('conformance: sample task')])).then((ex) => {
      const id = ex.response === undefined ? undefined : resultOf(ex as AnsweredExchange)?.id;
      return typeof id === 'string' ? id : randomUUID();
    }),
  );
}

/** A finished task of the agent (plain message/send): a task-level scope nothing is ever delivered to. */
export async function finishedTaskId(c: CheckContext): Promise<string> {
  const { task } = await sendTask(c, [textPart('webhook configuration scope')]);
  c.require('message/send result.id', task.id, is.nonEmptyString());
  return task.id as string;
}

export type FinalOutcome = 'completed' | 'failed' | 'canceled';

async function makeFinished(c: CheckContext, outcome: FinalOutcome): Promise<string> {
  let taskId: string;
  // The final state an answer of the agent reported (the cancel result, the blocking send's task).
  let heardEnd: unknown;
  if (outcome === 'canceled') {
    const task = await cancellableTask(c, 'to be canceled');
    heardEnd = stateOf(resultOf(await cancelLive(c, task, 'conformance: final canceled task')));
    taskId = task.taskId;
  } else {
    if (outcome === 'failed') await requireDirectives(c, 'a failed task (fail)');
    const directive = outcome === 'failed' ? { fail: 'conformance failure' } : undefined;
    const { task } = await sendTask(c, scriptParts(`to be ${outcome}`, directive));
    heardEnd = stateOf(task);
    taskId = task.id as string;
  }
  const state = stateOf(await awaitState(c, taskId, isFinalState, 2_000));
  // Read unfinished after the agent said it ended is a finding (below); unfinished with no such word,
  // the harness's window was only too short.
  if (!isFinalState(state) && !isFinalState(heardEnd)) {
    notSeenIn(c, `the sample's end (${outcome})`, state, c.scaled(2_000));
  }
  if (outcome !== 'canceled' && isFinalState(state) && state !== outcome) {
    // An agent may fail a plain message (spec 3: "agent errors"; C-51: an agent in maintenance does),
    // and the directive contract is no spec requirement: the sample cannot be made, nothing is wrong.
    c.notExercised(`the sample task meant to end ${outcome} ended ${String(state)}`);
  }
  c.require(`state of the ${outcome} sample task`, state, outcome);
  return taskId;
}

/**
 * One sample task per final state, made once per suite file by the first check that needs it;
 * a failed attempt is forgotten so that the next check tries again with its own context.
 */
export function finishedTasks(): (c: CheckContext, outcome: FinalOutcome) => Promise<string> {
  const made = new Map<FinalOutcome, MadeOnce<string>>();
  return (c, outcome) => madeOnce(made, outcome, c, (c) => makeFinished(c, outcome), true);
}

/**
 * One plain text message answered both ways: its message/send result, and the results of the events
 * of a message/stream of the same text (undefined when the card does not serve message/stream).
 */
export async function sentAndStreamed(
  c: CheckContext,
  text: string,
): Promise<{ send: JsonObject | undefined; streamed?: JsonObject[] }> {
  const send = resultOf(await sendText(c, text));
  if (!servedMethods(c).includes('message/stream')) return { send };
  return { send, streamed: streamResults(await streamToEnd(c, [textPart(text)])) };
}

export interface CancelSample {
  taskId: string;
  reason: string;
  ex: AnsweredExchange;
  result: JsonObject | undefined;
  /** The stream of the canceled task, read to its end. */
  transcript: StreamTranscript;
}

/**
 * A task cancelled while running, with a supplied reason. With the directive contract the task runs
 * until cancelled; without it the cancel races a plain stream and may lose (then undefined). A task
 * heard ending on its own before the cancel left (endedBefore: its system timeout met while the cancel
 * waited on the agent's pace) gives no sample either: undefined, with a note saying what was seen.
 */
export async function cancelRunningTask(
  c: CheckContext,
  useDirective: boolean,
  reasonText = 'conformance cancel',
): Promise<CancelSample | undefined> {
  const fields: DirectiveFields = { runUntilCanceled: true };
  const parts = useDirective ? [directivePart(fields)] : [{ type: 'text', text: 'cancel me' }];
  const stream = await c.stream('message/stream', messageParams(parts), { totalMs: 10_000 });
  let taskId: string | undefined;
  for await (const ev of stream.events()) {
    const id = resultOfEvent(ev)?.id;
    if (typeof id === 'string') taskId = id;
    break;
  }
  if (taskId === undefined) {
    await stream.close();
    return undefined;
  }
  const reason = `${reasonText} ${randomUUID()}`;
  const ex = await c.rpc('tasks/cancel', { taskId, reason });
  const result = resultOf(ex);
  // Met its system timeout while the cancel waited on a slow or rate-limited agent: no sample.
  const ended = result === undefined ? endedBefore(c, { taskId, stream }, ex) : undefined;
  if (ended !== undefined) {
    c.info(`no running task was cancelled: ${ended}`);
    await stream.close();
    return undefined;
  }
  const transcript = result === undefined ? await stream.close() : await stream.done;
  return result === undefined && !useDirective ? undefined : { taskId, reason, ex, result, transcript };
}
