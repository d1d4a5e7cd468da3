// Spec 4.6/4.7 across replicas (--replica): a webhook configuration set for a task made through one
// replica, through a second, is read back with tasks/pushNotificationConfig/get through every
// replica. Not-applicable without two replicas (suites/support/replicas.ts).
import { isObject } from '../../schemas/json.ts';
import { is, suiteFile, verifies } from '../support/index.ts';
import { didNotKnow, notKnown, taskOnFirstReplica } from '../support/replicas.ts';
import { resultOf } from '../support/rpc.ts';
import { GET, SET } from '../support/webhooks.ts';

suiteFile({
  // message/send and tasks/get until final through the first replica, a set through the second, a get
  // through each replica.
  cost: { requests: 6, turns: 1 },
});

verifies(
  '4.7/get-reflects-set',
  'a task made through one replica, configured through another: get through every replica reflects the set',
  async (c) => {
    const t = await taskOnFirstReplica(c, 'configured through the other replicas');
    // A finished task: no delivery is due, so the URL is never called (as in get.test.ts).
    const config = { url: 'https://webhook.a2a-conformance.invalid/replicas', events: ['task.completed'] };
    const setter = t.others[0]!;
    const set = await setter.c.rpc(SET, { taskId: t.taskId, config });
    const refused = notKnown(set);
    if (refused !== undefined)
      c.fail(didNotKnow(setter.url, t, refused), { expected: 'a result', actual: refused });
    const configId = resultOf(set)?.configId;
    c.require(`set through replica ${setter.url}: result.configId`, configId, is.nonEmptyString());
    for (const reader of [t.made, ...t.others]) {
      const ex = await reader.c.rpc(GET, { taskId: t.taskId });
      const answered = notKnown(ex);
      if (answered !== undefined) {
        c.check(didNotKnow(reader.url, t, answered), answered, 'the configuration');
        continue;
      }
      const got = resultOf(ex);
      const stored = isObject(got?.config) ? got.config : {};
      c.check(`get through replica ${reader.url}: config.url`, stored.url, config.url);
      c.check(`get through replica ${reader.url}: configId`, got?.configId, configId);
      c.check(`get through replica ${reader.url}: active`, got?.active, true);
    }
  },
);
