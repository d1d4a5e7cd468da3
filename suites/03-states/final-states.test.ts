// Spec 3 rules 1 and 2: completed, failed and canceled are final, and tasks/cancel on a final task
// is an error (section 7) that leaves the task as it was. C-06 (completed: -32001, or the -32000
// variant of note 1 with data.currentState), C-07 (failed, canceled: any error code here).
import {
  ERROR_CODES,
  is,
  suiteFile,
  verifies,
  type AnsweredExchange,
  type CheckContext,
} from '../support/index.ts';
import { requireDirectives, scriptParts } from '../support/directives.ts';
import { errorData } from '../support/errors.ts';
import { cancellableTask, cancelLive, cancelTask, openTask, requireWorking } from '../support/live-tasks.ts';
import { sendTask, textPart } from '../support/messages.ts';
import { errorOf, responseOf, resultOf } from '../support/rpc.ts';
import { finishedTasks } from '../support/samples.ts';
import { streamSeen } from '../support/streams.ts';
import { getTask, replyText, requireCompletedTask, stateOf, statusOf } from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';

suiteFile({
  cost: { requests: 5, turns: 1 },
});

const finished = finishedTasks();

/** What every rejected cancel must be (spec 3 rule 2): an error, never a result. */
function checkRejected(c: CheckContext, ex: AnsweredExchange): void {
  c.check('cancel response result', responseOf(ex)?.result, is.absent());
  c.check('cancel response error.code', errorOf(ex)?.code, is.type('number'));
}

verifies(
  '3/cancel-final-task-rejected',
  'cancel of a completed task is -32001 (or -32000 with currentState) and it stays completed',
  async (c) => {
    const taskId = await finished(c, 'completed');
    const ex = await cancelTask(c, taskId);
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
    const got = await getTask(c, taskId);
    c.check('tasks/get status.state after the cancel', stateOf(got), 'completed');
    c.check('tasks/get status.message after the cancel', statusOf(got)?.message, is.type('object'));
  },
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
);

verifies(
  '3/cancel-final-task-rejected',
  'cancel of a canceled task is an error and its reason is kept',
  async (c) => {
    const taskId = await finished(c, 'canceled');
    checkRejected(c, await cancelTask(c, taskId, 'conformance: second cancel'));
    const got = await getTask(c, taskId);
    c.check('tasks/get status.state after the cancel', stateOf(got), 'canceled');
    c.check(
      'tasks/get status.reason after the cancel',
      statusOf(got)?.reason,
      'conformance: final canceled task',
    );
  },
);

verifies(
  '3/final-states-terminal',
  'a task canceled mid-delay is still canceled after the delay would have ended',
  async (c) => {
    await requireDirectives(c, 'a task that stays working for a while');
    const workMs = c.scaled(250);
    const task = await openTask(c, scriptParts('cut short', { delayMs: workMs, progressSteps: 2 }));
    await requireWorking(c, task.taskId, workMs);
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
  { concurrent: true },
);

verifies(
  '3/final-states-terminal',
  'a canceled task stays canceled after another cancel and later reads',
  async (c) => {
    const task = await cancellableTask(c, 'canceled for good');
    await cancelLive(c, task);
    await cancelTask(c, task.taskId);
    await sleep(50);
    const states = [stateOf(await getTask(c, task.taskId)), stateOf(await getTask(c, task.taskId))];
    c.check('tasks/get states after the cancel', states, ['canceled', 'canceled']);
  },
  { concurrent: true },
);

verifies(
  '3/final-states-terminal',
  'a completed task stays completed, with the same reply, on later reads',
  async (c) => {
    const { task } = await sendTask(c, [textPart('done for good')]);
    requireCompletedTask(c, task, 'the plain message');
    const taskId = task.id as string;
    await cancelTask(c, taskId);
    await sleep(50);
    const got = await getTask(c, taskId);
    c.check('tasks/get status.state', stateOf(got), 'completed');
    c.check('tasks/get reply text', replyText(got), replyText(task));
  },
  { concurrent: true },
);
