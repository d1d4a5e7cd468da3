// Spec 3 (the webhook column of the transition table and rule 3) with rulings C-17, C-20: each
// transition delivers its task.* event. Task-level configurations (C-17: they replace the agent-level
// one for their task) wherever the task exists first. task.submitted needs an agent-level one: its
// checks are in suites/06-01-webhooks/agent-scope.test.ts, the one file that sets the agent's
// agent-level configuration (another file setting it would replace that file's while its checks read
// it). The events of a queued task (C-21) are read in the queue scenario,
// suites/08-limits/concurrent-tasks.test.ts.
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { captured, checkEvent } from '../support/deliveries.ts';
import { directivesHonoured, requireDirectives, type DirectiveFields } from '../support/directives.ts';
import { endedBefore } from '../support/ended-first.ts';
import { cancelTask } from '../support/live-tasks.ts';
import { resultOf, sentAt } from '../support/rpc.ts';
import { coveredInTime, startRunningTask, taskLevelUrl } from '../support/webhooks.ts';

suiteFile({
  cost: { requests: 5, turns: 1 },
});

const together = { concurrent: true };

// ---- running tasks given a task-level configuration ---------------------------------------------

/** A task running when its task-level configuration is set; `finish` drives it to its outcome. */
async function runWithConfig(c: CheckContext, label: string, directive?: DirectiveFields) {
  const task = await startRunningTask(c, directive);
  const at = await taskLevelUrl(c, task.taskId, label);
  await coveredInTime(c, task);
  return { task, ...at };
}

verifies(
  '3/completed-webhook',
  'completing a task delivers task.completed',
  async (c) => {
    const { task, ...at } = await runWithConfig(c, 'completed');
    const since = await task.finish();
    checkEvent(c, await captured(c, at, task.taskId, 'task.completed', since), 'task.completed', {
      'status.state': 'completed',
    });
  },
  together,
);

verifies(
  '3/failed-webhook',
  'a failing task delivers task.failed',
  async (c) => {
    await requireDirectives(c, 'a failing task (fail)');
    // finishOnCancel: the task fails the moment finish() cancels it, long before delayMs.
    const directive = { delayMs: c.scaled(1_500), fail: 'conformance failure', finishOnCancel: true };
    const { task, ...at } = await runWithConfig(c, 'failed', directive);
    const since = await task.finish();
    checkEvent(c, await captured(c, at, task.taskId, 'task.failed', since), 'task.failed', {
      'status.state': 'failed',
      'status.error.message': 'conformance failure',
    });
  },
  // message/stream, the set, tasks/get (and the stored configuration's createdAt when the task already
  // ended), tasks/get until working, tasks/cancel (finishOnCancel), tasks/get.
  { ...together, cost: { requests: 7, turns: 1 } },
);

verifies(
  '3/cancel-from-working-webhook',
  'canceling a working task delivers task.canceled',
  async (c) => {
    const { task, ...at } = await runWithConfig(c, 'canceled', { runUntilCanceled: true });
    const reason = 'conformance: cancel while working';
    const ex = await cancelTask(c, task.taskId, reason);
    const since = sentAt(ex);
    const ended = resultOf(ex) === undefined ? endedBefore(c, task, ex) : undefined;
    if (ended !== undefined) c.notExercised(ended);
    if (resultOf(ex) === undefined && !(await directivesHonoured(c))) {
      c.notExercised('the plain task ended before the cancel reached it (no directive contract to hold it)');
    }
    c.require(
      'tasks/cancel of the working task succeeded',
      resultOf(ex),
      is.objectContaining({ canceled: true }),
    );
    const got = await captured(c, at, task.taskId, 'task.canceled', since);
    checkEvent(c, got, 'task.canceled', { reason });
  },
  // message/stream of a held task, the set, tasks/cancel.
  { ...together, cost: { requests: 3, turns: 1 } },
);
