// Spec 6 with ruling C-17: a task that no configuration covers is delivered nowhere. It needs an agent
// with no agent-level configuration, which no set can undo, so it lives here: the suites run in path
// order and this file comes before every one that sets an agent-level configuration (06-01-webhooks/).
import { isObject } from '../../schemas/json.ts';
import { suiteFile, verifies } from '../support/index.ts';
import { sendTask, textPart } from '../support/messages.ts';
import { finishedTaskId } from '../support/samples.ts';
import { getConfig, requireResult, requireSet } from '../support/webhooks.ts';

suiteFile({
  cost: { requests: 4, turns: 2 },
  runs: {
    when: 'first',
    why: 'its check needs an agent on which no agent-level webhook configuration was ever set (C-17), and later files set one',
  },
});

verifies(
  '6/no-delivery-without-config',
  'a task no configuration covers is delivered nowhere',
  async (c) => {
    const agent = requireResult(c, 'agent-level get', await getConfig(c));
    if (agent.config !== null) {
      const url = isObject(agent.config) ? agent.config.url : agent.config;
      c.notExercised(
        `an agent-level configuration (url ${String(url)}) was set before this check, so every task is covered`,
      );
    }
    // A task-level configuration of another task gives a target that mixes scopes somewhere to send to.
    const hooks = await c.webhooks();
    await requireSet(c, { url: hooks.newUrl('other-task').url }, await finishedTaskId(c));
    const { task } = await sendTask(c, [textPart('a task no configuration covers')]);
    // The spec sets no delivery latency: a delivery of the task is a violation whenever it comes, so
    // the run's receiver watches for one until the end of the run (settled after the grace period).
    hooks.expectNothingMore('deliveries of the uncovered task, to any url of the run', {
      taskId: String(task.id),
    });
  },
  { crossSection: 'must run before any file sets an agent-level configuration' },
);
