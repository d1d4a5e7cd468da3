// 4.5 tasks/resubscribe on a finished task (C-09: its final status with final true, plain JSON or a
// one-event stream), taskId required (C-14), unknown task -32000, errors before any stream (C-26),
// and -32004 where the subscription cannot be served (C-41: an agent without streaming; on a
// streaming agent, a task the a2a:directive marks `streamable: false`).
import { randomUUID } from 'node:crypto';
import { isObject } from '../../schemas/json.ts';
import {
  completeAnswer,
  ERROR_CODES,
  is,
  suiteFile,
  verifies,
  isNotExercisedStop,
} from '../support/index.ts';
import type { CheckContext } from '../support/index.ts';
import type { StreamTranscript } from '../../harness/check/index.ts';
import { directivePart, requireDirectives } from '../support/directives.ts';
import { messageParams, sendTask, textPart } from '../support/messages.ts';
import { resultOf, resultOfEvent, type JsonObject } from '../support/rpc.ts';
import {
  checkEarlyError,
  earlyError,
  eventSummary,
  liveDelayMs,
  liveParts,
  requireEnded,
  runStream,
} from '../support/streams.ts';
import type { StreamRun } from '../support/streams.ts';
import { awaitState, FINAL_STATES, getTask, isFinalState, stateOf, statusOf } from '../support/tasks.ts';
import { READS_A_SAMPLE, sharedSample } from '../support/samples.ts';
import { sendUnawaited } from '../support/live-tasks.ts';

suiteFile({
  // The error checks: one tasks/resubscribe each.
  cost: { requests: 1, turns: 0 },
});

/** The result a resubscribe gave for a finished task, in either C-09 form; records a third form. */
function finalAnswer(c: CheckContext, run: StreamRun): JsonObject | undefined {
  requireEnded(c, run.t);
  if (!run.t.isEventStream) {
    const json = isObject(run.t.json) ? run.t.json : {};
    c.require(
      'answer (C-09)',
      isObject(json.result) ? 'a result' : (json.error ?? run.t.parseError),
      'a result',
    );
    return json.result as JsonObject;
  }
  c.check(
    'SSE events of a finished task (C-09: exactly one)',
    eventSummary(run.t),
    is.where('one event, final true', () => run.t.events.length === 1 && run.t.events[0]?.isFinal === true),
  );
  return resultOfEvent(run.t.events[0]);
}

/**
 * C-09: the task's own final status, with final true, whatever the final state. Spec 4.5 states that
 * answer for a completed task only, so a failed or canceled task may instead be refused with -32004
 * (subscription failed, sent as C-26 says): accepted with a note.
 */
interface Resubscribed {
  taskId: string;
  /** tasks/get of the finished task before the resubscribe. */
  stored: JsonObject | undefined;
  run: StreamRun;
}

/** tasks/get of a finished task, then tasks/resubscribe to it. */
async function resubscribeFinished(c: CheckContext, taskId: string): Promise<Resubscribed> {
  const stored = await awaitState(c, taskId, isFinalState, 2_000);
  c.require('task state before resubscribing', stateOf(stored), is.oneOf([...FINAL_STATES]));
  return { taskId, stored, run: await runStream(c, 'tasks/resubscribe', { taskId }) };
}

/** A completed task resubscribed to: the final-status check and the Content-Type check read it. */
const completedResubscribed = sharedSample(
  'a completed task, resubscribed',
  // message/send, tasks/get, tasks/resubscribe.
  { requests: 3, turns: 1 },
  async (c: CheckContext) => {
    const { task } = await sendTask(c, [textPart('finished task')]);
    return resubscribeFinished(c, task.id as string);
  },
);

function checkFinalStatus(c: CheckContext, { taskId, stored, run }: Resubscribed): void {
  if (stateOf(stored) !== 'completed' && earlyError(run.t).error !== undefined) {
    const error = checkEarlyError(c, run, ERROR_CODES.SUBSCRIPTION_FAILED);
    c.info(
      `a ${String(stateOf(stored))} task refused with -32004: legal, spec 4.5 names a completed task (C-09)`,
      error,
    );
    return;
  }
  const result = finalAnswer(c, run);
  c.check('result.id', result?.id, taskId);
  c.check('result.final', result?.final, true);
  // The state and its own field (message, error or reason, 2.8); other status members may differ.
  const status = stored!.status as JsonObject;
  const own = Object.fromEntries(
    ['state', 'message', 'error', 'reason'].filter((k) => k in status).map((k) => [k, status[k]]),
  );
  c.check('result.status (against tasks/get)', result?.status, is.objectContaining(own));
}

/** A failed task, resubscribed to (the directive contract scripts the failure). */
async function failedResubscribed(c: CheckContext): Promise<Resubscribed> {
  await requireDirectives(c, 'a failed task');
  const { task } = await sendTask(c, [textPart('failing'), directivePart({ fail: 'scripted failure' })]);
  c.require('message/send state', stateOf(task), 'failed');
  return resubscribeFinished(c, task.id as string);
}

/** A task canceled while it ran, resubscribed to. */
async function canceledResubscribed(c: CheckContext): Promise<Resubscribed> {
  await requireDirectives(c, 'a task kept running until canceled');
  const stream = await c.stream(
    'message/stream',
    messageParams(await liveParts(c, { runUntilCanceled: true })),
  );
  let taskId: unknown;
  for await (const ev of stream.events()) {
    taskId = resultOfEvent(ev)?.id;
    break;
  }
  if (typeof taskId !== 'string') {
    const t = await stream.close();
    c.notExercised(`message/stream gave no first event with a task id: ${JSON.stringify(eventSummary(t))}`);
  }
  await c.rpc('tasks/cancel', { taskId, reason: 'conformance resubscribe' });
  await stream.close();
  return resubscribeFinished(c, taskId as string);
}

const FINISHED: ReadonlyArray<{ outcome: string; make: (c: CheckContext) => Promise<Resubscribed> }> = [
  { outcome: 'completed', make: completedResubscribed },
  { outcome: 'failed', make: failedResubscribed },
  { outcome: 'canceled', make: canceledResubscribed },
];

verifies(
  '4.5/resubscribe-final-task-returns-status',
  'a finished task (completed, failed, canceled): its final status',
  async (c) => {
    await c.each('final states resubscribed to', FINISHED, async ({ outcome, make }, i) => {
      try {
        checkFinalStatus(c, await make(c));
      } catch (e) {
        // A later final state that cannot be made here (no directive contract, no task id) leaves
        // what the earlier ones showed standing.
        if (i === 0 || !isNotExercisedStop(e)) throw e;
        c.info(`a ${outcome} task: not exercised (${(e as Error).message})`);
      }
    });
  },
  {
    // The completed task is the file's sample (shared with the Content-Type check).
    cost: READS_A_SAMPLE,
    // The failed task: message/send, tasks/get, tasks/resubscribe; the canceled one: message/stream,
    // tasks/cancel, tasks/get, tasks/resubscribe.
    property: { requests: 4, turns: 1, cases: FINISHED.length },
  },
);

verifies(
  '4.5/resubscribe-final-task-plain-json',
  'a finished task is answered as application/json',
  async (c) => {
    const { run } = await completedResubscribed(c);
    requireEnded(c, run.t);
    c.check('Content-Type', run.t.contentType, is.matching(/^application\/json\s*(;|$)/i));
    c.info(
      'result.subscribed (2.10)',
      isObject(run.t.json) ? (run.t.json.result as JsonObject)?.subscribed : undefined,
    );
  },
  { cost: READS_A_SAMPLE },
);

const WITHOUT_TASK_ID: ReadonlyArray<{ what: string; params: JsonObject }> = [
  { what: 'no taskId', params: { includeHistory: true } },
  { what: 'a non-string taskId', params: { taskId: 42 } },
];

verifies(
  '4.5/resubscribe-task-id-required',
  'no taskId, or a non-string one: -32602 before any stream',
  async (c) => {
    await c.each('params without a usable taskId', WITHOUT_TASK_ID, async ({ what, params }) => {
      c.info(`case: ${what}`);
      checkEarlyError(c, await runStream(c, 'tasks/resubscribe', params), ERROR_CODES.INVALID_PARAMS);
    });
  },
  { cost: { requests: 1, turns: 0 }, property: { requests: 1, turns: 0, cases: WITHOUT_TASK_ID.length } },
);

verifies(
  '7/task-not-found-code',
  'tasks/resubscribe of an unknown task: -32000 before any stream',
  async (c) => {
    const taskId = `unknown-${randomUUID()}`;
    const error = checkEarlyError(
      c,
      await runStream(c, 'tasks/resubscribe', { taskId }),
      ERROR_CODES.TASK_NOT_FOUND,
    );
    c.info('error.data', error?.data);
  },
  { crossSection: 'graded on the resubscribe to an unknown task' },
);

/** The resubscribe was answered as for a final task (C-09): a result that says final, plain or one event. */
function answersFinal(t: StreamTranscript): boolean {
  const results = t.isEventStream
    ? t.events.map((ev) => (isObject(ev.json) ? ev.json.result : undefined))
    : [isObject(t.json) ? t.json.result : undefined];
  return results.some((r) => isObject(r) && (r.final === true || isFinalState(stateOf(r as JsonObject))));
}

function streamingOff(c: CheckContext): boolean {
  const caps = (c.card as { capabilities?: { streaming?: unknown } } | null)?.capabilities;
  return caps?.streaming === false;
}

/**
 * The parts of a task whose subscription must fail: on an agent without streaming any live task
 * (C-41); on a streaming agent one the directive marks `streamable: false` (docs/directives.md),
 * held working until the check cancels it.
 */
async function unstreamableParts(c: CheckContext): Promise<{ parts: JsonObject[]; held: boolean }> {
  if (streamingOff(c)) return { parts: await liveParts(c), held: false };
  await requireDirectives(c, 'a live task that does not support streaming on a streaming agent');
  const fields = { streamable: false, runUntilCanceled: true };
  const directive = { type: 'text', text: `a2a:directive ${JSON.stringify(fields)}` };
  return { parts: [textPart('conformance unstreamable task'), directive], held: true };
}

verifies(
  '4.5/resubscribe-subscription-failed',
  'a live task that cannot be streamed: -32004',
  async (c) => {
    const { parts, held } = await unstreamableParts(c);
    // C-16: a client-chosen task id lets the harness resubscribe while message/send still blocks. The
    // send blocks until the task ends (spec 4.1): a held task ends only when the check cancels it, so
    // its answer is read after the cancel, and no answer to it is no finding (c.client, not c.rpc).
    const taskId = randomUUID();
    const { answer: sending, left } = sendUnawaited(c, parts, taskId);
    const cancel = async (): Promise<void> => {
      if (held) await c.client.rpc('tasks/cancel', { taskId, reason: 'conformance: resubscribe checked' });
    };
    // The task appears once the agent took the message: a slow or paced agent's turn after it left
    // (awaitState scales), which may be after other checks' turns freed a task slot.
    await left;
    const running = await awaitState(c, taskId, (s) => s !== undefined, 1_000);
    if (stateOf(running) === undefined || isFinalState(stateOf(running))) {
      await cancel();
      c.notExercised(
        `no running task to resubscribe to (state ${String(stateOf(running))}; ${held ? 'a task held until canceled' : `a ${liveDelayMs(c)} ms task`})`,
      );
    }
    let run: StreamRun;
    let after: JsonObject | undefined;
    try {
      run = await runStream(c, 'tasks/resubscribe', { taskId }, { client: c.newClient() });
      // Answered as a final task (C-09): read it before the check's own cancel can end it.
      if (answersFinal(run.t)) after = await getTask(c, taskId);
    } finally {
      await cancel();
    }
    if (after !== undefined && isFinalState(stateOf(after))) {
      // The task ended on its own (its scripted end, the system timeout, C-05) while the resubscribe
      // waited on a slow or rate-limited agent: C-09's answer for a final task is legal, nothing to grade.
      const reason = statusOf(after)?.reason;
      c.notExercised(
        `the task was already ${String(stateOf(after))}${typeof reason === 'string' ? ` (reason ${JSON.stringify(reason)})` : ''} when the resubscribe was answered, as a final task (C-09): the check needs it live`,
      );
    }
    const error = checkEarlyError(c, run, ERROR_CODES.SUBSCRIPTION_FAILED);
    c.info('error.data', error?.data);
    const sent = await sending;
    c.info('message/send result state', completeAnswer(sent) ? stateOf(resultOf(sent)) : 'no answer');
  },
  // The directive probe (once per file), message/send, tasks/get until the task exists,
  // tasks/resubscribe, tasks/cancel.
  { concurrent: true, cost: { requests: 5, turns: 2 } },
);
