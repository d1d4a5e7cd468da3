// Spec 4.3 (tasks/get) with 2.7/2.8: the result fields and timestamps (C-35, C-39), the current
// state in each of the five states, the status details of each state (C-24 progress, C-45 error),
// -32000 for an unknown id (spec 7) and retention of finished tasks (C-44).
import { randomUUID } from 'node:crypto';
import { validate } from '../../schemas/registry.ts';
import { ERROR_CODES, is, suiteFile, verifies } from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { requireDirectives, scriptParts } from '../support/directives.ts';
import { readTooLate, endedBefore } from '../support/ended-first.ts';
import { errorData } from '../support/errors.ts';
import { cancelTask, openTask } from '../support/live-tasks.ts';
import { errorOf, type JsonObject, resultOf } from '../support/rpc.ts';
import { finishedTasks, READS_A_SAMPLE, sharedSample } from '../support/samples.ts';
import {
  awaitState,
  getTask,
  notSeenIn,
  STATE_WINDOW_MS,
  stateOf,
  statusOf,
  isFinalState,
} from '../support/tasks.ts';
import { instantOf, RFC3339 } from '../support/timestamps.ts';
import { progressTrace, type ProgressTrace } from './progress-trace.ts';

suiteFile({
  // Most checks only read a shared sample; the others say what they send.
  cost: READS_A_SAMPLE,
});

const finished = finishedTasks();

/** A finished sample task as one tasks/get read it: every check that only reads it reads this answer. */
function finishedRead(outcome: 'completed' | 'failed') {
  // message/send, tasks/get until final (one read at most agents' pace), the read the checks share.
  const cost = { requests: 3, turns: 1 };
  return sharedSample(`the ${outcome} task, read once`, cost, async (c: CheckContext) => {
    const taskId = await finished(c, outcome);
    return { taskId, task: await getTask(c, taskId) };
  });
}
const completedRead = finishedRead('completed');
const failedRead = finishedRead('failed');

interface HeldSample {
  taskId: string;
  /** The first tasks/get past submitted, before the cancel. */
  working: JsonObject | undefined;
  /** Why no working task was left to read (readTooLate), when the read was final. */
  gone?: string;
  cancel: AnsweredExchange;
  /** Why the cancel found no running task (endedBefore), when it was refused. */
  endedFirst?: string;
  /** tasks/get once the cancel was answered, until final (within the harness's window). */
  after: JsonObject | undefined;
}

/**
 * A runUntilCanceled task read working, then canceled and read again: one task for the working read
 * and the canceled one (C-35). What shows the task ended on its own first is read by the maker, whose
 * client holds the exchanges.
 */
const heldThenCanceled = sharedSample(
  'a task held working, then canceled',
  // The directive probe (once per file); message/stream, tasks/get until past submitted,
  // tasks/cancel, tasks/get of the end.
  { requests: 5, turns: 2 },
  async (c: CheckContext) => {
    await requireDirectives(c, 'a task that runs until canceled');
    const task = await openTask(c, scriptParts('working, then canceled', { runUntilCanceled: true }));
    let working: JsonObject | undefined;
    let gone: string | undefined;
    let cancel: AnsweredExchange;
    try {
      working = await awaitState(c, task.taskId, (s) => s !== 'submitted', STATE_WINDOW_MS);
      gone = stateOf(working) === 'working' ? undefined : readTooLate(c, task);
    } finally {
      cancel = await cancelTask(c, task.taskId, 'conformance: held task read, then canceled');
    }
    const endedFirst = resultOf(cancel)?.canceled === true ? undefined : endedBefore(c, task, cancel);
    const after = await awaitState(c, task.taskId, isFinalState, 2_000);
    await task.stream?.close();
    const sample: HeldSample = { taskId: task.taskId, working, cancel, after };
    if (gone !== undefined) sample.gone = gone;
    if (endedFirst !== undefined) sample.endedFirst = endedFirst;
    return sample;
  },
);

function schemaErrors(name: Parameters<typeof validate>[0], value: unknown): unknown {
  const v = validate(name, value);
  return v.valid ? [] : v.errors;
}

// First in the file: it needs the agent idle, so against a --target it runs alone (harness/check/verifies.ts),
// best before other workers start long checks it would wait for.

/**
 * What the polls saw, for a trace that could not show a working task: on a paced or distant agent
 * the first tasks/get can arrive after the 300 ms task ended on its own.
 */
function readStates(trace: ProgressTrace): string {
  const states = trace.reads.map((t) => stateOf(t) ?? 'no task');
  return `${states.length} read(s), states ${states.join(', ')}`;
}

verifies(
  '4.3/get-task-id-required',
  'tasks/get without taskId gets -32602 with data.details',
  async (c) => {
    const ex = await c.rpc('tasks/get', {});
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
    c.check('error.data.details', errorData(ex)?.details, is.nonEmptyString());
  },
  { concurrent: true, cost: { requests: 1, turns: 0 } },
);

verifies(
  '4.3/get-result-fields',
  'the result has id, status, createdAt and updatedAt',
  async (c) => {
    const { taskId, task } = await completedRead(c);
    c.check('tasks-get-result schema errors', schemaErrors('tasks-get-result', task), []);
    c.check('result.id', task?.id, taskId);
    c.check('result.createdAt', task?.createdAt, is.matching(RFC3339));
    c.check('result.updatedAt', task?.updatedAt, is.matching(RFC3339));
  },
  { concurrent: true },
);

verifies(
  '4.3/get-current-state',
  'a task message/send returned completed reads completed',
  async (c) => {
    c.check('tasks/get status.state', stateOf((await completedRead(c)).task), 'completed');
  },
  { concurrent: true },
);

verifies(
  '4.3/get-current-state',
  'a failed task reads failed',
  async (c) => {
    c.check('tasks/get status.state', stateOf((await failedRead(c)).task), 'failed');
  },
  { concurrent: true },
);

verifies(
  '4.3/get-current-state',
  'a canceled task reads canceled',
  async (c) => {
    const s = await heldThenCanceled(c);
    if (s.endedFirst !== undefined) c.notExercised(s.endedFirst);
    const state = stateOf(s.after);
    // Unfinished after a cancel the agent refused without a reason the harness saw: its window only.
    if (!isFinalState(state) && resultOf(s.cancel) === undefined)
      notSeenIn(c, 'the end of the canceled task', state, c.scaled(2_000));
    c.check('tasks/cancel result.canceled', resultOf(s.cancel)?.canceled, true);
    c.check('tasks/get status.state', state, 'canceled');
  },
  { concurrent: true },
);

verifies(
  '4.3/get-current-state',
  'a task held by runUntilCanceled reads working',
  async (c) => {
    const { working: seen, gone } = await heldThenCanceled(c);
    if (stateOf(seen) === 'submitted') notSeenIn(c, 'working', 'submitted', c.scaled(STATE_WINDOW_MS));
    // Read after the task met its system timeout (the read waited on a slow or rate-limited agent).
    if (gone !== undefined) c.notExercised(`${gone}: no working task was left to read`);
    c.check('tasks/get status.state', stateOf(seen), 'working');
    c.check('status.progress of the working task', statusOf(seen)?.progress, is.type('object'));
  },
  { concurrent: true },
);

verifies(
  '4.3/get-status-details',
  'a completed status carries the agent reply message',
  async (c) => {
    const message = statusOf((await completedRead(c)).task)?.message;
    c.check('status.message schema (agent-message) errors', schemaErrors('agent-message', message), []);
  },
  { concurrent: true },
);

verifies(
  '4.3/get-status-details',
  'a failed status carries an error object',
  async (c) => {
    const error = statusOf((await failedRead(c)).task)?.error;
    c.check('status.error', error, is.type('object'));
  },
  { concurrent: true },
);

verifies(
  '4.3/get-status-details',
  'every working status read while polling carries progress within bounds',
  async (c) => {
    const trace = await progressTrace(c);
    const working = trace.reads.filter((t) => stateOf(t) === 'working');
    if (working.length === 0)
      c.notExercised(
        `no tasks/get read the progress task working (${readStates(trace)}): the task, ${trace.delayMs} ms in 3 steps, ended before a poll reached it`,
      );
    for (const [i, t] of working.entries()) {
      const progress = statusOf(t)?.progress;
      c.check(
        `progress of working read #${i}`,
        progress,
        is.where('{current, total, message} with total > 0 and 0 <= current <= total (C-24)', (p) => {
          const { current, total, message } = (p ?? {}) as Record<string, unknown>;
          return (
            typeof current === 'number' &&
            typeof total === 'number' &&
            typeof message === 'string' &&
            total > 0 &&
            current >= 0 &&
            current <= total
          );
        }),
      );
    }
  },
  { concurrent: true },
);

verifies(
  '2.8/progress-monotone',
  'progress.current never decreases across tasks/get polls',
  async (c) => {
    const trace = await progressTrace(c);
    const currents = trace.reads
      .map((t) => (statusOf(t)?.progress as { current?: unknown } | undefined)?.current)
      .filter((v): v is number => typeof v === 'number');
    if (currents.length < 2) {
      c.notExercised(`fewer than two tasks/get reads carried progress.current (${readStates(trace)})`);
    }
    c.check(
      'progress.current over the polls',
      currents,
      is.where('a non-decreasing sequence', () => currents.every((v, i) => i === 0 || v >= currents[i - 1]!)),
    );
  },
  { concurrent: true, crossSection: 'graded on the tasks/get progress trace' },
);

verifies(
  '4.3/get-timestamps-ordered',
  'createdAt <= updatedAt at every read, and updatedAt never goes back at a state change',
  async (c) => {
    const trace = await progressTrace(c);
    for (const [i, t] of trace.reads.entries()) {
      const created = Date.parse(String(t?.createdAt));
      const updated = Date.parse(String(t?.updatedAt));
      c.check(
        `read #${i} (createdAt, updatedAt)`,
        [t?.createdAt, t?.updatedAt],
        is.where('createdAt <= updatedAt', () => created <= updated),
      );
    }
    // Two changes within one tick of the target's clock (the same second, for whole-second
    // timestamps) legitimately share updatedAt: across a change it must not go back, and a tie is
    // noted. That it moves is shown where the harness spaces two changes (2.7/updated-at-present).
    for (const [i, t] of trace.reads.entries()) {
      const prev = trace.reads[i - 1];
      if (prev === undefined || stateOf(prev) === stateOf(t)) continue;
      const label = `updatedAt across ${String(stateOf(prev))} -> ${String(stateOf(t))}`;
      const pair = [prev?.updatedAt, t?.updatedAt];
      c.check(
        label,
        pair,
        is.where('a later or equal updatedAt', () => instantOf(pair[1]) >= instantOf(pair[0])),
      );
      if (instantOf(pair[1]) === instantOf(pair[0]))
        c.info(`${label}: the same instant at the target's timestamp precision (legal)`, pair);
    }
  },
  { concurrent: true },
);

verifies(
  '4.3/get-timestamps-ordered',
  'a completed task has createdAt <= updatedAt',
  async (c) => {
    const { task } = await completedRead(c);
    c.check(
      '(createdAt, updatedAt)',
      [task?.createdAt, task?.updatedAt],
      is.where(
        'createdAt <= updatedAt',
        () => Date.parse(String(task?.createdAt)) <= Date.parse(String(task?.updatedAt)),
      ),
    );
  },
  { concurrent: true },
);

verifies(
  '4.3/get-unknown-task-32000',
  'an unknown task id gets -32000 with data.taskId and a suggestion',
  async (c) => {
    const taskId = `conformance-unknown-${randomUUID()}`;
    const ex = await c.rpc('tasks/get', { taskId });
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.TASK_NOT_FOUND);
    c.check('error.data.taskId', errorData(ex)?.taskId, taskId);
    c.check('error.data.suggestion', errorData(ex)?.suggestion, is.nonEmptyString());
  },
  { concurrent: true, cost: { requests: 1, turns: 0 } },
);

verifies(
  '4.3/finished-task-retrievable',
  'a task finished at the start of the file is still retrievable at its end',
  async (c) => {
    const taskId = await finished(c, 'completed');
    const task = await getTask(c, taskId);
    c.check('tasks/get of the earlier task: (id, state)', [task?.id, stateOf(task)], [taskId, 'completed']);
  },
  { cost: { requests: 1, turns: 0 } },
);
