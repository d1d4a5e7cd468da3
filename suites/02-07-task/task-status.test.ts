// 2.8 TaskStatus on real results: state, message when completed, error when failed (C-45), progress
// while working (C-24) and reason in a cancel result. Plain send/stream results come first; failed,
// multi-step and cancelled tasks use the directive contract (docs/directives.md), or a cancel race.
import { is, suiteFile, typeOf, verifies, type CheckContext } from '../support/index.ts';
import { servedMethods } from '../support/card.ts';
import { directivePart, directivesHonoured, requireDirectives } from '../support/directives.ts';
import { messageParams } from '../support/messages.ts';
import { resultOf, type JsonObject } from '../support/rpc.ts';
import { cancelRunningTask, sentAndStreamed, sharedSample } from '../support/samples.ts';
import { checkSchema, requireObject } from '../support/schemas.ts';
import { statusesOf, streamResults, streamToEnd } from '../support/streams.ts';
import { awaitState, statusOf } from '../support/tasks.ts';
import { TASK_STATES } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  // Every check reads the two shared samples (or cancels a task of its own): none reads another's.
  concurrent: true,
});

type Seen = Array<[string, JsonObject]>;

const plain = sharedSample(
  'plain message/send result and message/stream events',
  { requests: 5, turns: 3 },
  async (c) => {
    const { send, streamed = [] } = await sentAndStreamed(c, 'status sample');
    return { send, streamed };
  },
);

const scripted = sharedSample(
  'directive-driven failed, multi-step and cancelled tasks',
  { requests: 5, turns: 3 },
  async (c) => {
    if (!(await directivesHonoured(c))) return undefined;
    const streams = servedMethods(c).includes('message/stream');
    // Four tasks of their own, made side by side: on a slow agent their turns overlap.
    const [sent, stepped, cancel, polled] = await Promise.all([
      c.rpc('message/send', messageParams([directivePart({ fail: 'conformance failure' })])),
      streams
        ? streamToEnd(c, [directivePart({ delayMs: c.scaled(90), progressSteps: 3 })]).then(streamResults)
        : [],
      streams ? cancelRunningTask(c, true) : undefined,
      streams ? polledStatuses(c) : [],
    ]);
    return { failed: resultOf(sent), stepped, cancel, polled };
  },
);

/** tasks/get reads of a multi-step task while it is working and once it has ended. */
async function polledStatuses(c: CheckContext): Promise<JsonObject[]> {
  const parts = [directivePart({ delayMs: c.scaled(300), progressSteps: 2 })];
  const stream = await c.stream('message/stream', messageParams(parts), { totalMs: 10_000 });
  let taskId: unknown;
  for await (const ev of stream.events()) {
    taskId = isObject(ev.json) && isObject(ev.json.result) ? ev.json.result.id : undefined;
    break;
  }
  if (typeof taskId !== 'string') {
    await stream.close();
    return [];
  }
  const working = await awaitState(c, taskId, (state) => state === 'working', 2_000);
  await stream.done;
  const ended = resultOf(await c.rpc('tasks/get', { taskId }));
  return [working, ended].filter((t): t is JsonObject => isObject(t));
}

/** Every status observed in this file, labelled by where it came from. */
async function allStatuses(c: CheckContext, withScripted: boolean): Promise<Seen> {
  const { send, streamed } = await plain(c);
  const seen: Seen = [];
  const add = (label: string, task: JsonObject | undefined) => {
    const status = statusOf(task);
    if (status !== undefined) seen.push([label, status]);
  };
  add('message/send result', send);
  streamed.forEach((e, i) => add(`message/stream event ${i + 1}`, e));
  const s = withScripted ? await scripted(c) : undefined;
  if (s !== undefined) {
    add('failed message/send result', s.failed);
    s.stepped.forEach((e, i) => add(`multi-step stream event ${i + 1}`, e));
    add('tasks/cancel result', s.cancel?.result);
    s.polled.forEach((t, i) => add(`tasks/get read ${i + 1}`, t));
  }
  return seen;
}

verifies('2.8/state-enum', 'every observed status.state is one of the five states', async (c) => {
  const seen = await allStatuses(c, true);
  for (const [label, status] of seen) c.check(`${label}: status.state`, status.state, is.oneOf(TASK_STATES));
});

verifies(
  '2.8/message-when-completed',
  'completed statuses carry an agent message with a parts array',
  async (c) => {
    const completed = (await allStatuses(c, false)).filter(([, s]) => s.state === 'completed');
    if (completed.length === 0) c.notExercised('no observed task completed');
    for (const [label, status] of completed) {
      const message = isObject(status.message) ? status.message : undefined;
      c.check(`${label}: type of status.message`, typeOf(status.message), 'object');
      c.check(`${label}: status.message.role`, message?.role, 'agent');
      c.check(`${label}: type of status.message.parts`, typeOf(message?.parts), 'array');
      checkSchema(c, 'agent-message', status.message, `${label}: status.message`);
    }
  },
);

async function failedStatus(c: CheckContext): Promise<JsonObject> {
  await requireDirectives(c, 'making a task fail');
  const status = statusOf((await scripted(c))?.failed);
  c.require('state of the task told to fail', status?.state, 'failed');
  return status!;
}

verifies('2.8/error-when-failed', 'a failed status carries an error object', async (c) => {
  const status = await failedStatus(c);
  c.check('type of status.error', typeOf(status.error), 'object');
});

verifies('2.8/error-message', 'a failed status error carries a string message', async (c) => {
  const status = await failedStatus(c);
  const error = isObject(status.error) ? status.error : undefined;
  c.check('type of status.error.message', typeOf(error?.message), 'string');
});

verifies('2.8/error-message', 'statuses in states other than failed carry no error', async (c) => {
  const others = (await allStatuses(c, true)).filter(([, s]) => s.state !== 'failed');
  for (const [label, status] of others)
    c.check(`${label} (${String(status.state)}): status.error`, status.error, is.absent());
});

verifies('2.8/error-code', 'a failed status error carries a string code', async (c) => {
  const status = await failedStatus(c);
  const error = isObject(status.error) ? status.error : undefined;
  c.check('type of status.error.code', typeOf(error?.code), 'string');
});

function progressIssues(progress: unknown): string | undefined {
  if (!isObject(progress)) return `progress is ${typeOf(progress)}`;
  const { current, total, message } = progress;
  if (typeof current !== 'number' || typeof total !== 'number') return 'current and total must be numbers';
  if (typeof message !== 'string') return 'message must be a string';
  if (!(total > 0)) return 'total must be > 0';
  return current >= 0 && current <= total ? undefined : 'current must lie in [0, total]';
}

verifies(
  '2.8/progress-shape',
  'working statuses carry progress {current, total > 0, message}, current in [0, total]',
  async (c) => {
    const working = (await allStatuses(c, true)).filter(([, s]) => s.state === 'working');
    if (working.length === 0)
      c.notExercised('no working status observed (no stream event or poll caught one)');
    for (const [label, status] of working) {
      c.check(
        `${label}: status.progress`,
        status.progress,
        is.where(
          'an object {current, total, message} with 0 <= current <= total, total > 0',
          (p) => progressIssues(p) === undefined,
        ),
      );
    }
  },
);

verifies(
  '2.8/progress-monotone',
  'progress.current never decreases across a multi-step stream',
  async (c) => {
    const s = (await directivesHonoured(c)) ? await scripted(c) : undefined;
    const events = s?.stepped.length ? s.stepped : (await plain(c)).streamed;
    const currents = statusesOf(events)
      .filter((st) => st.state === 'working' && isObject(st.progress))
      .map((st) => (st.progress as JsonObject).current);
    if (currents.length < 2) c.notExercised(`fewer than two progress updates observed (${currents.length})`);
    const sorted = [...currents].sort((a, b) => Number(a) - Number(b));
    c.check('progress.current in event order', currents, sorted);
  },
);

verifies(
  '2.8/progress-only-working',
  'statuses in other states than working carry no progress',
  async (c) => {
    const others = (await allStatuses(c, true)).filter(([, s]) => s.state !== 'working');
    for (const [label, status] of others)
      c.check(`${label} (${String(status.state)}): status.progress`, status.progress, is.absent());
  },
);

verifies(
  '2.8/reason-in-cancel-result',
  'the status of a cancel result carries the reason as a string',
  async (c) => {
    const s = (await directivesHonoured(c)) ? await scripted(c) : undefined;
    const sample =
      s?.cancel ??
      (servedMethods(c).includes('message/stream') ? await cancelRunningTask(c, false) : undefined);
    if (sample === undefined)
      return c.notExercised('no task could be cancelled while running (it finished first)');
    const status = requireObject(c, 'tasks/cancel result status', statusOf(sample.result));
    c.check('type of status.reason', typeOf(status.reason), 'string');
    c.check('status.reason equals the supplied reason', status.reason, sample.reason);
  },
);
