// Spec 7 row -32000 ("Unknown task id") with C-53: an empty taskId names no task, so tasks/get,
// tasks/cancel and tasks/resubscribe answer an error, -32602 (an invalid value, the reference's
// choice) or -32000 (an unknown task id), never a result.
import { ERROR_CODES, is, suiteFile, verifies } from '../support/index.ts';
import { answer } from '../support/calls.ts';
import { servedMethods } from '../support/card.ts';
import { answerError } from '../support/errors.ts';

suiteFile({
  cost: { requests: 3, turns: 0 },
});

const TASK_METHODS = ['tasks/get', 'tasks/cancel', 'tasks/resubscribe'];

verifies(
  '7/empty-task-id-error',
  'an empty taskId gets -32602 or -32000 from tasks/get, tasks/cancel and tasks/resubscribe',
  async (c) => {
    // A method the card does not list answers -32601, graded by 2.14; the others must refuse "".
    const methods = TASK_METHODS.filter((m) => servedMethods(c).includes(m));
    if (methods.length === 0)
      c.notExercised('the card lists none of tasks/get, tasks/cancel, tasks/resubscribe');
    for (const method of methods) {
      const a = await answer(c.client, method, { taskId: '' });
      c.check(`${method}: a result for the empty taskId`, a.served, false);
      c.check(
        `${method}: error.code`,
        answerError(a)?.code,
        is.oneOf([ERROR_CODES.INVALID_PARAMS, ERROR_CODES.TASK_NOT_FOUND]),
      );
    }
  },
);
