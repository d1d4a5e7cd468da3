// 4.5 tasks/resubscribe on a finished task (C-09: its final status with final true, plain JSON or a
// one-event stream), taskId required (C-14), unknown task -32000, errors before any stream (C-26),
// and -32004 where the subscription cannot be served (C-41: an agent without streaming; on a
// streaming agent, a task the a2a:directive marks `streamable: false`).
import { randomUUID } from 'node:crypto';
import { isObject } from '../../schemas/json.ts';
import { completeAnswer, ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
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
  type StreamRun,
} from '../support/streams.ts';
import { awaitState, FINAL_STATES, isFinalState, stateOf } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 3, turns: 1 },
});

/** The result a resubscribe gave for a finished task, in either C-09 form; records a third form. */
function finalAnswer(c: CheckContext, run: StreamRun): JsonObject | undefined {
  requireEnded(run.t);
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
async function checkFinalStatus(c: CheckContext, taskId: string): Promise<void> {
  const stored = await awaitState(c, taskId, isFinalState, 2_000);
  c.require('task state before resubscribing', stateOf(stored), is.oneOf([...FINAL_STATES]));
  const run = await runStream(c, 'tasks/resubscribe', { taskId });
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

verifies('4.5/resubscribe-final-task-returns-status', 'a completed task: its final status', async (c) => {
  const { task } = await sendTask(c, [textPart('finished task')]);
  await checkFinalStatus(c, task.id as string);
});

verifies('4.5/resubscribe-final-task-returns-status', 'a failed task: its final status', async (c) => {
  await requireDirectives(c, 'a failed task');
  const { task } = await sendTask(c, [textPart('failing'), directivePart({ fail: 'scripted failure' })]);
  c.require('message/send state', stateOf(task), 'failed');
  await checkFinalStatus(c, task.id as string);
});

verifies('4.5/resubscribe-final-task-returns-status', 'a canceled task: its final status', async (c) => {
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
  await checkFinalStatus(c, taskId as string);
});

verifies(
  '4.5/resubscribe-final-task-plain-json',
  'a finished task is answered as application/json',
  async (c) => {
    const { task } = await sendTask(c, [textPart('plain answer')]);
    const run = await runStream(c, 'tasks/resubscribe', { taskId: task.id });
    requireEnded(run.t);
    c.check('Content-Type', run.t.contentType, is.matching(/^application\/json\s*(;|$)/i));
    c.info(
      'result.subscribed (2.10)',
      isObject(run.t.json) ? (run.t.json.result as JsonObject)?.subscribed : undefined,
    );
  },
);

verifies('4.5/resubscribe-task-id-required', 'no taskId: -32602 before any stream', async (c) => {
  checkEarlyError(
    c,
    await runStream(c, 'tasks/resubscribe', { includeHistory: true }),
    ERROR_CODES.INVALID_PARAMS,
  );
});

verifies('4.5/resubscribe-task-id-required', 'a non-string taskId: -32602 before any stream', async (c) => {
  checkEarlyError(c, await runStream(c, 'tasks/resubscribe', { taskId: 42 }), ERROR_CODES.INVALID_PARAMS);
});

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
);

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
    const sending = c.client.rpc('message/send', messageParams(parts, { id: taskId }));
    const cancel = async (): Promise<void> => {
      if (held) await c.client.rpc('tasks/cancel', { taskId, reason: 'conformance: resubscribe checked' });
    };
    // The task appears once the agent took the message: a slow agent's turn later (awaitState scales).
    const running = await awaitState(c, taskId, (s) => s !== undefined, 1_000);
    if (stateOf(running) === undefined || isFinalState(stateOf(running))) {
      await cancel();
      c.notExercised(
        `no running task to resubscribe to (state ${String(stateOf(running))}; ${held ? 'a task held until canceled' : `a ${liveDelayMs(c)} ms task`})`,
      );
    }
    let run: StreamRun;
    try {
      run = await runStream(c, 'tasks/resubscribe', { taskId }, { client: c.newClient() });
    } finally {
      await cancel();
    }
    const error = checkEarlyError(c, run, ERROR_CODES.SUBSCRIPTION_FAILED);
    c.info('error.data', error?.data);
    const sent = await sending;
    c.info('message/send result state', completeAnswer(sent) ? stateOf(resultOf(sent)) : 'no answer');
  },
  { concurrent: true },
);
