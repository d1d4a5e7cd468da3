// Spec 4.6 (tasks/pushNotificationConfig/set) with rulings C-14 and C-17: `config` is a required object,
// and a set on a scope that already has a configuration replaces it (a new configId; events of the
// task then reach the new url only). Task-level scopes only, so no other check is affected.
import { isObject } from '../../schemas/json.ts';
import { is, SIDE_BY_SIDE, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { awaitEvidence, deliveriesOf, summary } from '../support/deliveries.ts';
import { refusal } from '../support/errors.ts';
import { finishedTaskId, sharedSample } from '../support/samples.ts';
import {
  coveredInTime,
  getConfig,
  INVALID_PARAMS,
  requireSet,
  SET,
  startRunningTask,
} from '../support/webhooks.ts';

suiteFile({
  // A running task given two task-level configurations: message/stream, two sets, tasks/get until
  // working, tasks/cancel (finishOnCancel), tasks/get.
  cost: { requests: 6, turns: 1 },
});

// Each check works on its own tasks (task-level scopes): they run side by side.
const together = { concurrent: true };

const HOOK = 'https://webhook.a2a-conformance.invalid/set';
const NOT_OBJECTS: readonly unknown[] = [HOOK, [HOOK], 42, null, true];

// The task the refused sets name: they store nothing, so one serves both. The replacing check makes its
// own, so that a set wrongly accepted here cannot replace what it reads back.
const refusalTask = sharedSample(
  'a finished task',
  // message/send of a task that ends at once (finishedTaskId).
  { requests: 1, turns: 1 },
  finishedTaskId,
);

async function expectConfigRefused(c: CheckContext, label: string, params: unknown): Promise<void> {
  const { code, field } = refusal(await c.rpc(SET, params));
  c.check(`${label}: error.code`, code, INVALID_PARAMS);
  c.check(`${label}: error.data.field`, field, 'config');
}

verifies(
  '4.6/set-config-required',
  'a set without config gets -32602 naming config',
  async (c) => {
    const taskId = await refusalTask(c);
    // A task named and no config first: a server that reads a task-level set from the taskId alone.
    const cases = [
      { label: 'params with taskId only', params: { taskId } },
      { label: 'params {}', params: {} },
    ];
    await c.each(
      'sets without config',
      cases,
      ({ label, params }) => expectConfigRefused(c, label, params),
      SIDE_BY_SIDE,
    );
  },
  { ...together, cost: { requests: 1, turns: 0 }, property: { requests: 1, turns: 0, cases: 2 } },
);

verifies(
  '4.6/set-config-object',
  'a config that is not an object gets -32602',
  async (c) => {
    const taskId = await refusalTask(c);
    // The url alone as a string first: the likeliest slip of a client, and of a lenient server.
    await c.each(
      'configs that are not objects',
      NOT_OBJECTS,
      (config) => expectConfigRefused(c, `config ${JSON.stringify(config)}`, { taskId, config }),
      SIDE_BY_SIDE,
    );
  },
  {
    ...together,
    cost: { requests: 1, turns: 0 },
    property: { requests: 1, turns: 0, cases: NOT_OBJECTS.length },
  },
);

verifies(
  '4.6/set-replaces-scope',
  'a second set on a scope returns a new configId and replaces',
  async (c) => {
    const taskId = await finishedTaskId(c);
    const first = await requireSet(c, { url: `${HOOK}/first` }, taskId);
    const second = await requireSet(c, { url: `${HOOK}/second`, events: ['task.failed'] }, taskId);
    c.check(
      'configId of the second set differs from the first',
      second,
      is.where(`not ${first}`, (a) => a !== first),
    );
    const { result } = await getConfig(c, taskId);
    c.check('get result.configId', result?.configId, second);
    const config = result?.config;
    c.check('get result.config.url', isObject(config) ? config.url : config, `${HOOK}/second`);
    c.check('get result.config.events', isObject(config) ? config.events : config, ['task.failed']);
  },
  // message/send of its own finished task, two sets and a get.
  { ...together, cost: { requests: 4, turns: 1 } },
);

verifies(
  '4.6/set-replaces-scope',
  'after a replacing set, the task events reach the new url only',
  async (c) => {
    const hooks = await c.webhooks();
    const old = hooks.newUrl('replaced');
    const fresh = hooks.newUrl('replacing');
    const task = await startRunningTask(c);
    await requireSet(c, { url: old.url, events: ['task.completed'] }, task.taskId);
    await requireSet(c, { url: fresh.url, events: ['task.completed'] }, task.taskId);
    await coveredInTime(c, task);
    const since = await task.finish();
    const match = { token: fresh.token, taskId: task.taskId, event: 'task.completed' };
    await awaitEvidence(c, hooks, match, { since, what: 'task.completed at the replacing url' });
    const got = deliveriesOf(hooks, fresh.token, task.taskId);
    c.check('task.completed deliveries to the replacing url', summary(got).length, 1);
    // However late they would come: settled at the latest at the end of the run.
    hooks.expectNothingMore('task.completed deliveries to the replacing url after the first', match, got);
    hooks.expectNothingMore('deliveries to the replaced url', { token: old.token });
  },
  together,
);
