// Spec 4.7 (tasks/pushNotificationConfig/get) with ruling C-17, on task-level scopes of finished tasks:
// get returns what set stored, and exactly the requested scope. The agent-level cases (no taskId,
// no fallback from task to agent) live in suites/06-01-webhooks/agent-scope.test.ts with the other
// checks that set an agent-level configuration, so that their order within one file is fixed.
import { isObject } from '../../schemas/json.ts';
import { suiteFile, verifies } from '../support/index.ts';
import { finishedTaskId, sharedSample } from '../support/samples.ts';
import { getConfig, requireResult, requireSet } from '../support/webhooks.ts';

suiteFile({
  // A tasks/pushNotificationConfig/get, after the message/send of a finished task at most.
  cost: { requests: 2, turns: 1 },
});

// Each check works on its own tasks (task-level scopes): they run side by side.
const together = { concurrent: true };

const HOOK = 'https://webhook.a2a-conformance.invalid/get';
const EVENTS = ['task.completed', 'task.canceled'];

/** One finished task given a task-level configuration: read back by one check, kept apart by the other. */
const configured = sharedSample(
  'a finished task with a task-level configuration',
  // message/send of a finished task, then its set.
  { requests: 2, turns: 1 },
  async (c) => {
    const taskId = await finishedTaskId(c);
    return { taskId, configId: await requireSet(c, { url: HOOK, events: EVENTS }, taskId) };
  },
);

verifies(
  '4.7/get-reflects-set',
  'get returns the stored url, events and configId, active',
  async (c) => {
    const { taskId, configId } = await configured(c);
    const events = EVENTS;
    const result = requireResult(c, 'get result', await getConfig(c, taskId));
    const config = isObject(result.config) ? result.config : {};
    c.check('result.config.url', config.url, HOOK);
    const got = Array.isArray(config.events) ? [...(config.events as string[])].sort() : config.events;
    c.check('result.config.events (sorted)', got, [...events].sort());
    c.check('result.configId', result.configId, configId);
    c.check('result.active', result.active, true);
  },
  { ...together, cost: { requests: 1, turns: 0 } },
);

verifies(
  '4.7/get-returns-scope',
  'get of another task does not return this task configuration',
  async (c) => {
    await configured(c);
    const other = await finishedTaskId(c);
    const result = requireResult(c, 'get result', await getConfig(c, other));
    c.check('result.config', result.config, null);
    c.check('result.configId', result.configId, null);
    c.check('result.active', result.active, false);
  },
  together,
);
