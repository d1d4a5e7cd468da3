// Spec 4.4 (tasks/cancel) with 2.9 and 7: taskId required (C-14), the cancel result and its reason
// (C-34: default "Canceled by client"), and the codes for a task already final: -32001 (or the spec 7
// note 1 form, -32000) for completed (C-06) and failed, -32002 for canceled (C-07), each with
// data.taskId and data.currentState.
import { validate } from '../../schemas/registry.ts';
import { ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { errorData } from '../support/errors.ts';
import { cancellableTask, cancelLive, cancelTask } from '../support/live-tasks.ts';
import { errorOf, resultOf } from '../support/rpc.ts';
import { finishedTasks, type FinalOutcome, READS_A_SAMPLE, sharedSample } from '../support/samples.ts';
import { getTask, stateOf, statusOf } from '../support/tasks.ts';

suiteFile({
  // A task caught running (message/stream, tasks/get until working), canceled, read with tasks/get.
  cost: { requests: 4, turns: 1 },
});

const finished = finishedTasks();

/** One running task canceled with a reason, and read after: the result-shape and the reason checks read it. */
const canceledWithReason = sharedSample(
  'a task canceled with a reason',
  // The directive probe (once per file), message/stream, tasks/get until working, tasks/cancel with
  // a reason, tasks/get.
  { requests: 5, turns: 2 },
  async (c: CheckContext) => {
    // Spaces, punctuation and non-ASCII: the reason must travel verbatim.
    const reason = `conformance: stop, please — ${Date.now()} ✓`;
    const task = await cancellableTask(c, 'cancel with a reason');
    const result = resultOf(await cancelLive(c, task, reason));
    const got = await getTask(c, task.taskId);
    await task.stream?.close();
    return { taskId: task.taskId, reason, result, got };
  },
);

verifies(
  '4.4/cancel-task-id-required',
  'tasks/cancel without taskId gets -32602 with data.details',
  async (c) => {
    const ex = await c.rpc('tasks/cancel', { reason: 'no task id' });
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
    c.check('error.data.details', errorData(ex)?.details, is.nonEmptyString());
  },
  { concurrent: true, cost: { requests: 1, turns: 0 } },
);

verifies(
  '4.4/cancel-result-fields',
  'a successful cancel answers {id, status, canceled: true}',
  async (c) => {
    const { taskId, result } = await canceledWithReason(c);
    const v = validate('cancel-result', result);
    c.check('cancel-result schema errors', v.valid ? [] : v.errors, []);
    c.check('result.id', result?.id, taskId);
    c.check('result.status.state', stateOf(result), 'canceled');
    c.check('result.canceled', result?.canceled, true);
  },
  { concurrent: true, cost: READS_A_SAMPLE },
);

verifies(
  '4.4/cancel-reason',
  'the supplied reason comes back unchanged in the result and in tasks/get',
  async (c) => {
    const { reason, result, got } = await canceledWithReason(c);
    c.check('result.status.reason', statusOf(result)?.reason, reason);
    c.check('tasks/get status.reason', statusOf(got)?.reason, reason);
  },
  { concurrent: true, cost: READS_A_SAMPLE },
);

verifies(
  '4.4/cancel-default-reason',
  'a cancel without reason succeeds with reason "Canceled by client"',
  async (c) => {
    const task = await cancellableTask(c, 'cancel without a reason');
    const result = resultOf(await cancelLive(c, task));
    c.check('result.canceled', result?.canceled, true);
    c.check('result.status.reason', statusOf(result)?.reason, 'Canceled by client');
    c.check('tasks/get status.reason', statusOf(await getTask(c, task.taskId))?.reason, 'Canceled by client');
  },
  { concurrent: true },
);

/**
 * Cancels the sample task in `state`; checks the code and data of C-06/C-07. Spec 7 note 1 documents
 * -32000 with data.currentState for a completed task; with currentState a client tells it from "task
 * not found", so it passes wherever -32001 is expected (completed, and failed by C-07's reading).
 */
async function checkFinalCode(c: CheckContext, state: FinalOutcome, code: number): Promise<void> {
  const taskId = await finished(c, state);
  const ex = await cancelTask(c, taskId);
  const noteForm: number[] = code === ERROR_CODES.TASK_ALREADY_COMPLETED ? [ERROR_CODES.TASK_NOT_FOUND] : [];
  if (noteForm.includes(errorOf(ex)?.code as number)) {
    c.info('-32000 with data.currentState is the spec 7 note 1 form: accepted like -32001 (C-06)');
  }
  c.check('error.code', errorOf(ex)?.code, is.oneOf([code, ...noteForm]));
  c.check('error.data.taskId', errorData(ex)?.taskId, taskId);
  c.check('error.data.currentState', errorData(ex)?.currentState, state);
}

verifies(
  '4.4/cancel-completed-task-code',
  'cancel of a completed task gets -32001 (or -32000) with data.taskId and currentState "completed"',
  (c) => checkFinalCode(c, 'completed', ERROR_CODES.TASK_ALREADY_COMPLETED),
  { concurrent: true },
);

verifies(
  '4.4/cancel-failed-task-code',
  'cancel of a failed task gets -32001 (or -32000) with data.taskId and currentState "failed"',
  (c) => checkFinalCode(c, 'failed', ERROR_CODES.TASK_ALREADY_COMPLETED),
  { concurrent: true },
);

verifies(
  '4.4/cancel-canceled-task-code',
  'cancel of a canceled task gets -32002 with data.taskId and currentState "canceled"',
  (c) => checkFinalCode(c, 'canceled', ERROR_CODES.TASK_ALREADY_CANCELED),
  { concurrent: true },
);
