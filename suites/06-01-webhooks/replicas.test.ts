// Spec 6.2/6.5 across replicas (--replica), ruled by C-59: a task made through one replica, its
// task.completed configuration set there, the event caused through another (the cancel that ends the
// task) and its first attempt failed so that a retry follows: every delivery of that event carries one
// X-Webhook-Delivery id, whichever replica sends it (a copy under that id is legal, spec 6.5).
// Not-applicable without two replicas (suites/support/replicas.ts).
import { suiteFile, verifies } from '../support/index.ts';
import { awaitAttempts, fastestRoundTripMs, headerOf, summary } from '../support/deliveries.ts';
import { didNotKnow, notKnown, onReplica, replicaUrls } from '../support/replicas.ts';
import { coveredInTime, setWithPolicy, startRunningTask, UNTIL_FINISHED } from '../support/webhooks.ts';

/** The first attempt fails (500) and is retried after 0.1 s: the retry may leave from any replica. */
const POLICY = { initialDelay: 0.1, backoffMultiplier: 2, maxRetries: 1 };

suiteFile({
  // message/stream of a held task and the set through the first replica, a tasks/get, the cancel and a
  // tasks/get through the second; then the retry the check configured.
  cost: {
    requests: 6,
    turns: 1,
    waits: [{ spec: 100, why: 'the retry schedule the check configures (initialDelay 0.1 s)' }],
  },
});

verifies(
  '6.5/delivery-id-across-replicas',
  'an event caused through another replica than its task and configuration: one delivery id, any replica sending',
  async (c) => {
    const [maker, driver] = replicaUrls(c) as [string, string];
    const made = onReplica(c, maker);
    const driving = onReplica(c, driver);
    const hooks = await c.webhooks();
    const sent = c.exchanges().length;
    const { token, url } = hooks.newUrl('replicas');
    await hooks.receiver.script(token, [{ status: 500 }]);
    const task = await startRunningTask(made, UNTIL_FINISHED, driving);
    const { policy } = await setWithPolicy(made, task.taskId, { url, events: ['task.completed'] }, POLICY);
    await coveredInTime(made, task);
    const known = notKnown(await driving.rpc('tasks/get', { taskId: task.taskId }));
    if (known !== undefined) {
      c.fail(didNotKnow(driver, { taskId: task.taskId, maker }, known), {
        expected: 'the task',
        actual: known,
      });
    }
    if (!task.scripted)
      c.info(`no directive contract: the task ended by itself, not through replica ${driver}`);
    const since = await task.finish();
    const roundTripMs = fastestRoundTripMs(c.exchanges().slice(sent));
    const attempts = await awaitAttempts(c, hooks, token, policy, 2, { since, roundTripMs });
    const ids = attempts.map((d) => headerOf(d, 'x-webhook-delivery'));
    c.info(`attempts of task.completed: ${JSON.stringify(summary(attempts))}`);
    c.check(
      'X-Webhook-Delivery of each attempt of task.completed',
      ids,
      ids.map(() => ids[0] ?? 'a delivery id'),
    );
    // A copy under the same id is legal (spec 6.5); the same event under another id, from whichever
    // replica and however late, is not: settled when the evidence is in, at the latest at the run's end.
    hooks.expectNothingMore(
      'task.completed delivered under another X-Webhook-Delivery',
      { token, taskId: task.taskId, event: 'task.completed' },
      attempts,
      'delivery',
    );
  },
  { timeoutMs: 30_000 },
);
