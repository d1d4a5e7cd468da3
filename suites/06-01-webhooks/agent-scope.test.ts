// Spec 6, 6.1-6.4, 2.11 and 4.7 with ruling C-17: every check that sets an agent-level configuration,
// in one file so that their order is fixed: one check of a task started before the set, then the
// black-box samples (a plain task) and the scope rules side by side; last the events filter, whose
// narrow configuration (task.completed only, no retries) is what stays set after this file.
// (6/no-delivery-without-config, which needs no agent-level configuration, is in 02-11-webhook-config/.)
import { isObject } from '../../schemas/json.ts';
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { awaitEvidence, captured, checkEvent, deliveriesOf, eventOf } from '../support/deliveries.ts';
import { sendTask, sendText, textPart } from '../support/messages.ts';
import { resultOf, sentAt } from '../support/rpc.ts';
import { finishedTaskId } from '../support/samples.ts';
import { awaitState, isFinalState, stateOf } from '../support/tasks.ts';
import { isoTimestamp } from '../support/timestamps.ts';
import { sleep } from '../support/timing.ts';
import {
  coveredInTime,
  getConfig,
  requireResult,
  requireSet,
  startRunningTask,
} from '../support/webhooks.ts';
import { agentConfig, agentLevelUrl, agentSample, requireSample } from './agent-sample.ts';
import { registerEventChecks } from './event-checks.ts';
import { registerRequestChecks } from './request-checks.ts';

suiteFile({
  cost: { requests: 1, turns: 1 },
  // Some forty checks, many waiting on a task's deliveries: over a slow link the file takes seconds,
  // so it starts with the long ones rather than ending the run alone.
  span: 'long',
});

/** The file's agent-level configuration; the check ends if the target refused it. */
async function requireAgentConfig(c: CheckContext) {
  const at = await agentConfig(c);
  c.require('agent-level set succeeded', at.problem, undefined);
  return at as typeof at & { configId: string };
}

// Second, before any other check sets it: the agent-level configuration is set while this task runs.
verifies(
  '2.11/agent-scoped-config',
  'a task running before an agent-level set gets its later events',
  async (c) => {
    const task = await startRunningTask(c);
    const at = await requireAgentConfig(c);
    await coveredInTime(c, task, true);
    const since = await task.finish();
    const ended = stateOf(await awaitState(c, task.taskId, isFinalState, 5_000));
    if (ended !== 'completed') c.notExercised(`the running task ended ${String(ended)}, not completed`);
    const got = await awaitEvidence(
      c,
      await c.webhooks(),
      { token: at.token, taskId: task.taskId, event: 'task.completed' },
      { since, what: 'task.completed of the task started before the set' },
    );
    c.check(
      'task.completed of the task started before the set',
      got.map(eventOf).includes('task.completed'),
      true,
    );
  },
  { crossSection: 'observable only through deliveries' },
);

// Under the one agent-level configuration, the checks below only read their own tasks' deliveries.
const together = { concurrent: true };

registerRequestChecks(together);
registerEventChecks(together);

verifies(
  '2.11/agent-scoped-config',
  'a task created after an agent-level set gets its events',
  async (c) => {
    const s = requireSample(c, await agentSample(c), 'agent-level sample');
    const events = s.deliveries.map(eventOf);
    c.check('task.submitted of the new task delivered', events.includes('task.submitted'), true);
    c.check(`${s.finalEvent} of the new task delivered`, events.includes(s.finalEvent), true);
  },
  { ...together, crossSection: 'observable only through deliveries' },
);

verifies(
  '2.13/get-config-last-used',
  'after a delivery, lastUsed is the RFC 3339 time of it',
  async (c) => {
    const s = requireSample(c, await agentSample(c), 'agent-level sample');
    const result = requireResult(c, 'agent-level get', await getConfig(c));
    const config = isObject(result.config) ? result.config : {};
    c.check('result.config.lastUsed', config.lastUsed, isoTimestamp);
    const after = Date.parse(String(config.lastUsed)) >= Date.parse(String(config.createdAt));
    c.check('config.lastUsed is not before config.createdAt', after, true);
    const last = s.deliveries.at(-1)!;
    c.info('lastUsed minus the arrival of the sample task last delivery, ms (two clocks)', {
      differenceMs: Date.parse(String(config.lastUsed)) - Date.parse(last.timestamp),
    });
  },
  { ...together, crossSection: 'set by a delivery' },
);

// The sample's deliveries follow the set within milliseconds, so a lastUsed stuck at createdAt (or
// at the first delivery) would pass the check above. A task delivered over a second after the set
// must move lastUsed at least that far past createdAt (both from the target's clock).
const LAST_USED_PAUSE_MS = 1_100;

verifies(
  '2.13/get-config-last-used',
  'lastUsed follows a delivery made over a second after the set',
  async (c) => {
    const at = await requireAgentConfig(c);
    // Not a wait for something to arrive: the time lastUsed must then have moved past createdAt.
    await sleep(LAST_USED_PAUSE_MS);
    const { ex, task } = await sendTask(c, [textPart('lastUsed')]);
    const since = sentAt(ex);
    await awaitEvidence(
      c,
      await c.webhooks(),
      { token: at.token, taskId: String(task.id), event: 'task.completed' },
      { since, what: 'task.completed of the task sent after the pause' },
    );
    const result = requireResult(c, 'agent-level get', await getConfig(c));
    const config = isObject(result.config) ? result.config : {};
    c.require('result.configId (the configuration of the file)', result.configId, at.configId);
    const ms = Date.parse(String(config.lastUsed)) - Date.parse(String(config.createdAt));
    c.check(
      'config.lastUsed minus config.createdAt, ms',
      ms,
      is.where(
        `at least ${LAST_USED_PAUSE_MS - 100}`,
        (v) => typeof v === 'number' && v >= LAST_USED_PAUSE_MS - 100,
      ),
    );
  },
  { ...together, crossSection: 'set by a delivery' },
);

verifies(
  '4.7/get-agent-scope',
  'get without taskId returns the agent-level configuration',
  async (c) => {
    const at = await requireAgentConfig(c);
    const result = requireResult(c, 'get result', await getConfig(c));
    const config = isObject(result.config) ? result.config : {};
    c.check('result.configId', result.configId, at.configId);
    c.check('result.config.url', config.url, at.url);
    c.check('result.active', result.active, true);
  },
  { ...together, crossSection: 'shares the agent-level configuration of the delivery checks' },
);

verifies(
  '4.7/get-returns-scope',
  'get with a taskId never falls back to the agent level',
  async (c) => {
    await requireAgentConfig(c);
    const result = requireResult(c, 'get result', await getConfig(c, await finishedTaskId(c)));
    c.check('result.config', result.config, null);
    c.check('result.configId', result.configId, null);
    c.check('result.active', result.active, false);
  },
  { ...together, crossSection: 'shares the agent-level configuration of the delivery checks' },
);

verifies(
  '6/task-level-replaces-agent-level',
  'after a task-level set, its task is delivered there only',
  async (c) => {
    const agent = await requireAgentConfig(c);
    const hooks = await c.webhooks();
    const task = await startRunningTask(c);
    const own = hooks.newUrl('task-scope');
    await requireSet(c, { url: own.url }, task.taskId);
    await coveredInTime(c, task);
    const since = await task.finish();
    const completed = { taskId: task.taskId, event: 'task.completed' };
    await awaitEvidence(
      c,
      hooks,
      { token: own.token, ...completed },
      {
        since,
        what: 'task.completed at the task-level url',
      },
    );
    const at = (token: string) => deliveriesOf(hooks, token, task.taskId);
    const atTask = at(own.token);
    const atAgent = at(agent.token);
    c.check('task.completed at the task-level url', atTask.map(eventOf).includes('task.completed'), true);
    // However late it would come: the agent-level url must never get it.
    hooks.expectNothingMore('task.completed at the agent-level url', { token: agent.token, ...completed });
    const names = [...atAgent, ...atTask].map(eventOf);
    const twice = names.filter((n, i) => names.indexOf(n) !== i);
    c.check('events delivered more than once across both urls', twice, []);
  },
  together,
);

/** Delivers one plain task to a new agent-level configuration of `events`; returns its events. */
async function filtered(
  c: CheckContext,
  events: string[],
  last: string,
  extra: Record<string, unknown> = {},
) {
  const at = await agentLevelUrl(c, 'filter', { events, ...extra });
  c.require('agent-level set succeeded', at.problem, undefined);
  const { ex, task } = await sendTask(c, [textPart('events filter')]);
  const since = sentAt(ex);
  const end = `task.${String(stateOf(task))}`;
  if (last !== 'task.submitted' && end !== last)
    c.notExercised(`the plain task ended with ${end}, not ${last}`);
  const taskId = String(task.id);
  const match = { token: at.token, taskId };
  await awaitEvidence(c, at.hooks, { ...match, event: last }, { since, what: `${last} of the task` });
  const got = deliveriesOf(at.hooks, at.token, taskId);
  // An unsubscribed event is a violation whenever it comes: settled at the latest at the end of the run.
  at.hooks.expectNothingMore(`events of the task other than ${last} (not subscribed)`, match, got);
  return got.map(eventOf);
}

// Sequential again: each sets its own agent-level configuration, replacing the file's.
verifies(
  '3/task-submitted-announced',
  'a new task is announced with task.submitted to a configuration of task.submitted only',
  async (c) => {
    const hooks = await c.webhooks();
    const { token, url } = hooks.newUrl('agent-level submitted');
    await requireSet(c, { url, events: ['task.submitted'] });
    const ex = await sendText(c, 'announce me');
    const since = sentAt(ex);
    const taskId = resultOf(ex)?.id;
    c.require('message/send result.id', taskId, is.nonEmptyString());
    checkEvent(
      c,
      await captured(c, { hooks, token }, taskId as string, 'task.submitted', since),
      'task.submitted',
    );
  },
  // The agent-level set, message/send.
  {
    cost: { requests: 2, turns: 1 },
    crossSection: 'it sets an agent-level configuration of its own, and this is the one file that sets them',
  },
);

verifies('6.1/events-filter', 'a configuration of task.submitted gets no other event', async (c) => {
  c.check('events delivered', await filtered(c, ['task.submitted'], 'task.submitted'), ['task.submitted']);
});

verifies('6.1/events-filter', 'a configuration of task.completed gets no other event', async (c) => {
  // Last in the file: no retries, so later files' tasks cost the agent one attempt each at most.
  const extra = { retryPolicy: { maxRetries: 0 } };
  c.check('events delivered', await filtered(c, ['task.completed'], 'task.completed', extra), [
    'task.completed',
  ]);
});
