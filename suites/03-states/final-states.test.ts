// Spec 3 rules 1 and 2: completed, failed and canceled are final, and tasks/cancel on a final task
// is an error (section 7) that leaves the task as it was. C-06 (completed: -32001, or the -32000
// variant of note 1 with data.currentState), C-07 (failed, canceled: any error code here).
import { ERROR_CODES, is, suiteFile, verifies } from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { requireDirectives, scriptParts } from '../support/directives.ts';
import { errorData } from '../support/errors.ts';
import { cancellableTask, cancelLive, cancelTask, openTask, requireWorking } from '../support/live-tasks.ts';
import { sendTask, textPart } from '../support/messages.ts';
import { errorOf, responseOf, resultOf } from '../support/rpc.ts';
import { finishedTasks, READS_A_SAMPLE, sharedSample } from '../support/samples.ts';
import { streamSeen } from '../support/streams.ts';
import {
  getTask,
  replyText,
  requireCompletedTask,
  stateOf,
  statusOf,
  awaitState,
  isFinalState,
  notSeenIn,
} from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';

suiteFile({
  // message/stream of a scripted task, tasks/get until working, tasks/cancel, tasks/get.
  cost: { requests: 4, turns: 1 },
  // Each check reads a shared sample or makes its own task (a cancel of the file's failed task is
  // refused and leaves it as it was): side by side, a paced agent's window takes their first requests
  // together instead of one check per window.
  concurrent: true,
});

const finished = finishedTasks();

/** A completed task, a tasks/cancel of it and a tasks/get after: what the checks of a completed task read. */
const completedCanceled = sharedSample(
  'a completed task, canceled, read again',
  // message/send, tasks/cancel, tasks/get.
  { requests: 3, turns: 1 },
  async (c: CheckContext) => {
    const { task } = await sendTask(c, [textPart('done for good')]);
    requireCompletedTask(c, task, 'the plain message');
    const taskId = task.id as string;
    // An answer before the end (not the blocking send of 4.1) is waited out, within the harness's window.
    if (!isFinalState(stateOf(task))) {
      const state = stateOf(await awaitState(c, taskId, isFinalState, 2_000));
      if (!isFinalState(state)) notSeenIn(c, "the plain task's end", state, c.scaled(2_000));
      c.require('state of the plain task', state, 'completed');
    }
    const cancel = await cancelTask(c, taskId);
    // Past the cancel: an agent that applied it late would show it now.
    await sleep(c.scaled(50));
    return { task, taskId, cancel, got: await getTask(c, taskId) };
  },
);

const FIRST_REASON = 'conformance: final canceled task';

/** A task canceled while it ran, canceled again, then read twice: what the checks of a canceled task read. */
const canceledTwice = sharedSample(
  'a canceled task, canceled again, read twice',
  // The directive probe (once per file), message/stream, tasks/get until working, two tasks/cancel,
  // two tasks/get.
  { requests: 7, turns: 2 },
  async (c: CheckContext) => {
    const task = await cancellableTask(c, 'canceled for good');
    await cancelLive(c, task, FIRST_REASON);
    const second = await cancelTask(c, task.taskId, 'conformance: second cancel');
    await sleep(c.scaled(50));
    const reads = [await getTask(c, task.taskId), await getTask(c, task.taskId)];
    await task.stream?.close();
    return { taskId: task.taskId, second, reads };
  },
);

/** What every rejected cancel must be (spec 3 rule 2): an error, never a result. */
function checkRejected(c: CheckContext, ex: AnsweredExchange): void {
  c.check('cancel response result', responseOf(ex)?.result, is.absent());
  c.check('cancel response error.code', errorOf(ex)?.code, is.type('number'));
}

verifies(
  '3/cancel-final-task-rejected',
  'cancel of a completed task is -32001 (or -32000 with currentState) and it stays completed',
  async (c) => {
    const { cancel: ex, got } = await completedCanceled(c);
    checkRejected(c, ex);
    const answer = { code: errorOf(ex)?.code, currentState: errorData(ex)?.currentState };
    c.check(
      'cancel error (code, data.currentState)',
      answer,
      is.where(
        '-32001, or the spec 7 note 1 variant -32000 with data.currentState "completed" (C-06)',
        () =>
          answer.code === ERROR_CODES.TASK_ALREADY_COMPLETED ||
          (answer.code === ERROR_CODES.TASK_NOT_FOUND && answer.currentState === 'completed'),
      ),
    );
    c.check('tasks/get status.state after the cancel', stateOf(got), 'completed');
    c.check('tasks/get status.message after the cancel', statusOf(got)?.message, is.type('object'));
  },
  { cost: READS_A_SAMPLE },
);

verifies(
  '3/cancel-final-task-rejected',
  'cancel of a failed task is an error and it stays failed',
  async (c) => {
    const taskId = await finished(c, 'failed');
    checkRejected(c, await cancelTask(c, taskId));
    const got = await getTask(c, taskId);
    c.check('tasks/get status.state after the cancel', stateOf(got), 'failed');
    c.check('tasks/get status.error after the cancel', statusOf(got)?.error, is.type('object'));
  },
  // message/send of a failing task, tasks/get until final, tasks/cancel, tasks/get.
  { cost: { requests: 4, turns: 1 } },
);

verifies(
  '3/cancel-final-task-rejected',
  'cancel of a canceled task is an error and its reason is kept',
  async (c) => {
    const { second, reads } = await canceledTwice(c);
    checkRejected(c, second);
    c.check('tasks/get status.state after the cancel', stateOf(reads[0]), 'canceled');
    c.check('tasks/get status.reason after the cancel', statusOf(reads[0])?.reason, FIRST_REASON);
  },
  { cost: READS_A_SAMPLE },
);

verifies(
  '3/final-states-terminal',
  'a task canceled mid-delay is still canceled after the delay would have ended',
  async (c) => {
    await requireDirectives(c, 'a task that stays working for a while');
    const workMs = c.scaled(250);
    const task = await openTask(c, scriptParts('cut short', { delayMs: workMs, progressSteps: 2 }));
    await requireWorking(c, task, workMs);
    const cancel = await cancelTask(c, task.taskId);
    if (resultOf(cancel) === undefined) c.notExercised('the task ended before the cancel reached it');
    // Past the end of the script: an agent result applied late would show up now.
    await sleep(workMs + 50);
    const got = await getTask(c, task.taskId);
    c.check('tasks/get status.state after the delay', stateOf(got), 'canceled');
    c.check('tasks/get status.message', statusOf(got)?.message, is.absent());
    if (task.stream !== undefined) {
      const seen = await streamSeen(task.stream);
      if (seen.whole) {
        c.check('last stream state', seen.states.at(-1), 'canceled');
      } else {
        c.info(`stream states ${JSON.stringify(seen.states)} before ${seen.cut} (its end not graded)`);
      }
    }
  },
);

verifies(
  '3/final-states-terminal',
  'a canceled task stays canceled after another cancel and later reads',
  async (c) => {
    const { reads } = await canceledTwice(c);
    c.check('tasks/get states after the cancel', reads.map(stateOf), ['canceled', 'canceled']);
  },
  { cost: READS_A_SAMPLE },
);

verifies(
  '3/final-states-terminal',
  'a completed task stays completed, with the same reply, on later reads',
  async (c) => {
    const { task, got } = await completedCanceled(c);
    c.check('tasks/get status.state', stateOf(got), 'completed');
    c.check('tasks/get reply text', replyText(got), replyText(task));
  },
  { cost: READS_A_SAMPLE },
);
