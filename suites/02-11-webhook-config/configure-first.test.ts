// Spec 2.11 line 124 with C-17 and C-55: "configure first, then send" is not supported. A set for a
// taskId no task has yet is refused, and the refusal stores nothing: the task a client then makes
// with that id (params.id, C-16) sends the refused configuration no event, while a task-level
// configuration set after the task exists gets them.
import { randomUUID } from 'node:crypto';
import { suiteFile, verifies } from '../support/index.ts';
import { awaitEvidence } from '../support/deliveries.ts';
import { directivePart, requireDirectives } from '../support/directives.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { sentAt } from '../support/rpc.ts';
import { endedBySystemTimeout } from '../support/ended-first.ts';
import { awaitState, getTask } from '../support/tasks.ts';
import { requireSet, setConfig, UNTIL_FINISHED } from '../support/webhooks.ts';

suiteFile({
  cost: { requests: 7, turns: 1 },
});

verifies(
  '2.11/task-scoped-unknown-task-not-stored',
  'a set refused before its task exists sends nothing once the task is made with that id',
  async (c) => {
    await requireDirectives(c, 'a task held working while a task-level configuration is set');
    const hooks = await c.webhooks();
    const refused = hooks.newUrl('refused-early');
    const taskId = randomUUID();
    if ((await setConfig(c, { url: refused.url }, taskId)).result !== undefined) {
      c.notExercised(
        'the set for a taskId no task has was accepted (configure-first is graded by 2.11/task-scoped-unknown-task)',
      );
    }
    const parts = [textPart('configured too early'), directivePart(UNTIL_FINISHED)];
    void c.client.rpc('message/send', messageParams(parts, { id: taskId }));
    const held = await awaitState(c, taskId, (state) => state === 'working', 5_000);
    if (held === undefined) c.notExercised(`no task answers to the client-chosen id ${taskId} (C-16)`);
    const own = hooks.newUrl('after-creation');
    await requireSet(c, { url: own.url }, taskId);
    const since = sentAt(await c.rpc('tasks/cancel', { taskId, reason: 'finish (finishOnCancel)' }));
    // The cancel completes the held task (finishOnCancel), unless it had ended on its own first (its
    // system timeout, C-05, while the cancel waited on a paced or slow agent): then no task.completed
    // is coming, and nothing is wrong.
    const ended = await getTask(c, taskId);
    if (endedBySystemTimeout(ended)) {
      c.notExercised(
        'the held task met its system timeout before the cancel that completes it arrived: no task.completed is due',
      );
    }
    await awaitEvidence(
      c,
      hooks,
      { token: own.token, event: 'task.completed' },
      {
        since,
        what: 'task.completed to the task-level configuration set once the task existed',
      },
    );
    // However late it would come (the spec sets no delivery latency), settled at the end of the run.
    hooks.expectNothingMore('events sent to the refused configuration', { token: refused.token });
  },
);
