// Spec 3 rows "working -> completed | failed | canceled" and the table as a whole: what a task's
// stream and tasks/get show as it runs, finishes, fails (a2a:directive `fail`) or is cancelled (C-34).
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { streamingClaimed } from '../support/card.ts';
import { requireDirectives, scriptParts } from '../support/directives.ts';
import { endedBefore, readTooLate } from '../support/ended-first.ts';
import { cancelTask, openTask, requireOwnEnd, requireWorking, type LiveTask } from '../support/live-tasks.ts';
import { sendTask, textPart } from '../support/messages.ts';
import { errorOf, resultOf, type JsonObject } from '../support/rpc.ts';
import { checkSeenStates, checkStreamStates, streamSeen, type StreamSeen } from '../support/streams.ts';
import {
  awaitState,
  awaitStateOf,
  illegalStep,
  isFinalState,
  LEGAL_PATHS,
  notSeenIn,
  requireCompletedTask,
  STATE_WINDOW_MS,
  stateOf,
  statusOf,
  getTask,
} from '../support/tasks.ts';
import { READS_A_SAMPLE, sharedSample } from '../support/samples.ts';

suiteFile({
  // message/stream of a scripted task, tasks/get until working, tasks/cancel, tasks/get.
  cost: { requests: 4, turns: 1 },
});

const AGENT_MESSAGE = is.objectContaining({ role: 'agent', parts: is.type('array') });

verifies(
  '3/listed-transitions-only',
  'the stream of a plain task follows the table',
  async (c) => {
    if (!streamingClaimed(c)) c.notExercised('the card says streaming is absent');
    const task = await openTask(c, [textPart('follow the table')]);
    const seen = await streamSeen(task.stream!);
    const states = seen.states;
    c.check(
      'stream states',
      states,
      is.where(LEGAL_PATHS, () => illegalStep(states) === null),
    );
    // A stream the harness stopped short (its budget) shows no end: only its steps are graded.
    if (!seen.whole) {
      c.info(`last stream state: ${JSON.stringify(states.at(-1))} before ${seen.cut} (not graded)`);
    } else {
      c.check('last stream state', states.at(-1), is.oneOf(['completed', 'failed', 'canceled']));
    }
  },
  { cost: { requests: 1, turns: 1 } },
);

verifies(
  '3/working-to-completed',
  'a plain message ends completed with the agent reply',
  async (c) => {
    const { task } = await sendTask(c, [textPart('complete me')]);
    requireCompletedTask(c, task, 'the plain message');
    c.check('message/send status.state', stateOf(task), 'completed');
    c.check('message/send status.message', statusOf(task)?.message, AGENT_MESSAGE);
    const got = await getTask(c, task.id as string);
    c.check('tasks/get status.state', stateOf(got), 'completed');
    c.check('tasks/get status.message', statusOf(got)?.message, AGENT_MESSAGE);
  },
  { cost: { requests: 2, turns: 1 } },
);

verifies(
  '3/working-to-failed',
  'message/send of a failing task returns failed',
  async (c) => {
    await requireDirectives(c, 'an agent that errors (fail)');
    const { task } = await sendTask(c, scriptParts('fail at once', { fail: 'conformance failure' }));
    c.check('message/send status.state', stateOf(task), 'failed');
    c.check('tasks/get status.state', stateOf(await getTask(c, task.id as string)), 'failed');
  },
  { cost: { requests: 2, turns: 1 } },
);

verifies('3/cancel-from-working', 'cancel of a working task succeeds and leaves it canceled', async (c) => {
  await requireDirectives(c, 'a task that runs until canceled');
  const task = await openTask(c, scriptParts('cancel me', { runUntilCanceled: true }));
  const before = await awaitStateOf(c, task, (s) => s !== 'submitted', STATE_WINDOW_MS);
  if (before === 'submitted') notSeenIn(c, 'working', 'submitted', c.scaled(STATE_WINDOW_MS));
  const gone = before === 'working' ? undefined : readTooLate(c, task);
  if (gone !== undefined) c.notExercised(`${gone}: nothing was left to cancel`);
  c.require('state before the cancel', before, 'working');
  const ex = await cancelTask(c, task.taskId, 'conformance: cancel while working');
  const result = resultOf(ex);
  // A runUntilCanceled task ends only by a cancel or the system timeout (C-05): one that met its
  // timeout while the cancel waited on the agent's rate limit left nothing to cancel.
  const ended = result?.canceled === true ? undefined : endedBefore(c, task, ex);
  if (ended !== undefined) c.notExercised(ended);
  c.check('cancel result.canceled', result?.canceled, true);
  c.check('cancel result.status.state', stateOf(result), 'canceled');
  const got = await getTask(c, task.taskId);
  c.check('tasks/get status.state', stateOf(got), 'canceled');
  c.check('tasks/get status.reason', statusOf(got)?.reason, 'conformance: cancel while working');
  if (task.stream !== undefined) {
    await checkStreamStates(c, 'stream states', task.stream, ['submitted', 'working', 'canceled']);
  }
});

verifies('3/cancel-from-working', 'cancel of a task working through a delay succeeds', async (c) => {
  await requireDirectives(c, 'a task that stays working for a while');
  const workMs = c.scaled(300);
  const task = await openTask(
    c,
    scriptParts('cancel during the delay', { delayMs: workMs, progressSteps: 2 }),
  );
  await requireWorking(c, task, workMs);
  const ex = await cancelTask(c, task.taskId);
  const ended = resultOf(ex)?.canceled === true ? undefined : endedBefore(c, task, ex);
  if (ended !== undefined) c.notExercised(ended);
  const after = await getTask(c, task.taskId);
  // A slow network or a loaded agent may let the work end before the cancel arrives: a refusal of a
  // task that completed meanwhile is the right answer, and nothing here to grade.
  if (resultOf(ex) === undefined && stateOf(after) === 'completed') {
    c.notExercised(
      `the task completed before the cancel reached it (${workMs} ms of work; the cancel answered error ` +
        `${JSON.stringify(errorOf(ex)?.code)}); the held-task check of this requirement grades it`,
    );
  }
  c.check('cancel result.canceled', resultOf(ex)?.canceled, true);
  c.check('tasks/get status.state', stateOf(after), 'canceled');
});

interface PolledRun {
  task: LiveTask;
  /** The state of every tasks/get read, in order, from the task's creation to its end or the window's. */
  seen: unknown[];
  /** The last read. */
  last: JsonObject | undefined;
  windowMs: number;
  streamed?: StreamSeen;
}

/**
 * A task working for a while (delayMs, progressSteps), polled with tasks/get from its creation to its
 * end: both the check of the table and the check of its completion read this one run.
 */
const polledRun = sharedSample(
  'a task working for a while, polled to its end',
  // The directive probe (once per file), message/stream of a 250 ms task (scaled), tasks/get from its
  // creation to its end (about four reads when paced).
  { requests: 6, turns: 2 },
  async (c: CheckContext) => {
    await requireDirectives(c, 'a task that stays working for a while');
    const task = await openTask(c, scriptParts('polled', { delayMs: c.scaled(250), progressSteps: 3 }));
    const seen: unknown[] = [];
    const last = await awaitState(
      c,
      task.taskId,
      (s) => {
        seen.push(s);
        return isFinalState(s);
      },
      STATE_WINDOW_MS,
    );
    const run: PolledRun = { task, seen, last, windowMs: c.scaled(STATE_WINDOW_MS) };
    if (task.stream !== undefined) {
      if (!isFinalState(stateOf(last))) await task.stream.close();
      run.streamed = await streamSeen(task.stream);
    }
    return run;
  },
);

// Checks that mostly wait for a task's delay: they run side by side.
verifies(
  '3/listed-transitions-only',
  'tasks/get polled through a task follows the table',
  async (c) => {
    const { seen, last, windowMs } = await polledRun(c);
    const states = seen.filter((s, i) => i === 0 || s !== seen[i - 1]);
    c.check(
      'polled states',
      states,
      is.where(LEGAL_PATHS, () => illegalStep(states) === null),
    );
    requireOwnEnd(c, last, windowMs);
    c.check('last polled state', states.at(-1), 'completed');
  },
  { concurrent: true, cost: READS_A_SAMPLE },
);

verifies(
  '3/working-to-completed',
  'a task seen working then completes with its result message',
  async (c) => {
    const { task, seen, last, windowMs, streamed } = await polledRun(c);
    // The first read past submitted: working, unless the work ended before a poll reached it.
    const label = 'state while the agent works';
    const first = seen.find((s) => s !== 'submitted');
    if (task.stream === undefined) {
      if (first === undefined) notSeenIn(c, 'working', 'submitted', windowMs);
      if (isFinalState(first)) {
        c.notExercised(
          `the task was already ${String(first)} when first seen past submitted: the harness could not read it while it worked`,
        );
      }
      c.require(label, first, 'working');
    } else if (isFinalState(first)) {
      c.info(`${label}: tasks/get first showed ${String(first)} (the work ended before the poll)`);
    } else if (first === undefined) {
      c.info(`${label}: still submitted ${windowMs} ms into the harness's wait (not graded)`);
    } else c.check(label, first, 'working');
    requireOwnEnd(c, last, windowMs);
    c.check('state after the agent finished', stateOf(last), 'completed');
    c.check('status.message once completed', statusOf(last)?.message, AGENT_MESSAGE);
    if (streamed !== undefined) {
      checkSeenStates(c, 'stream states', streamed, ['submitted', 'working', 'completed']);
    }
  },
  { concurrent: true, cost: READS_A_SAMPLE },
);

/**
 * The task seen `working` by tasks/get. A poll that first sees it final (its work ended before the
 * poll: a loaded or remote agent) or still submitted when the harness stopped watching proves
 * nothing wrong; the stream, when there is one, still shows whether it worked, and without one the
 * check is not-exercised.
 */
async function seenWorking(c: CheckContext, task: LiveTask, label: string): Promise<void> {
  if (task.stream === undefined) return requireWorking(c, task, c.scaled(250), label);
  const seen = stateOf(await awaitState(c, task.taskId, (s) => s !== 'submitted', STATE_WINDOW_MS));
  if (isFinalState(seen))
    c.info(`${label}: tasks/get first showed ${String(seen)} (the work ended before the poll)`);
  else if (seen === 'submitted')
    c.info(`${label}: still submitted ${c.scaled(STATE_WINDOW_MS)} ms into the harness's wait (not graded)`);
  else c.check(label, seen, 'working');
}

verifies(
  '3/working-to-failed',
  'an agent error moves the working task to failed',
  async (c) => {
    await requireDirectives(c, 'an agent that errors (fail)');
    const task = await openTask(
      c,
      scriptParts('fail me', { delayMs: c.scaled(250), fail: 'conformance failure' }),
    );
    await seenWorking(c, task, 'state before the error');
    const done = await awaitState(c, task.taskId, (s) => s !== 'working', STATE_WINDOW_MS);
    requireOwnEnd(c, done, c.scaled(STATE_WINDOW_MS));
    c.check('state after the error', stateOf(done), 'failed');
    c.check('status.error', statusOf(done)?.error, is.type('object'));
    if (task.stream !== undefined) {
      await checkStreamStates(c, 'stream states', task.stream, ['submitted', 'working', 'failed']);
    }
  },
  { concurrent: true },
);
