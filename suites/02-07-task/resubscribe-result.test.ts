// 2.10 resubscribe result on two real resubscriptions: to a completed task (C-09: one plain JSON
// result, or one final SSE event) and to a running task (C-10: live events). The running task is
// held in working by the directive contract; elsewhere a plain stream is raced and may end first.
import { is, suiteFile, typeOf, verifies, type CheckContext } from '../support/index.ts';
import { directivePart, directivesHonoured } from '../support/directives.ts';
import { messageParams, sendText, textPart } from '../support/messages.ts';
import { resultOf, type JsonObject } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { checkSchemaWithExtras } from '../support/schemas.ts';
import { streamResults } from '../support/streams.ts';
import { statusOf } from '../support/tasks.ts';
import { TASK_STATES } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  concurrent: true,
});

interface Resubscription {
  taskId: string;
  results: JsonObject[];
  /** tasks/get of the task once the resubscription ended. */
  get: JsonObject | undefined;
}

const FINAL = ['completed', 'failed', 'canceled'];

async function resubscribe(c: CheckContext, taskId: string): Promise<Resubscription> {
  const stream = await c.stream(
    'tasks/resubscribe',
    { taskId },
    { closeOnFinal: true, totalMs: c.scaled(10_000) },
  );
  const results = streamResults(await stream.done);
  return { taskId, results, get: resultOf(await c.rpc('tasks/get', { taskId })) };
}

const ofFinished = sharedSample(
  'tasks/resubscribe of a completed task',
  { requests: 3, turns: 1 },
  async (c) => {
    const task = resultOf(await sendText(c, 'resubscribe sample'));
    return typeof task?.id === 'string' ? resubscribe(c, task.id) : undefined;
  },
);

function resultState(ev: { json?: unknown }): unknown {
  return isObject(ev.json) && isObject(ev.json.result) ? statusOf(ev.json.result)?.state : undefined;
}

const ofRunning = sharedSample(
  'tasks/resubscribe of a running task',
  { requests: 3, turns: 1 },
  async (c) => {
    const parts = (await directivesHonoured(c))
      ? [directivePart({ delayMs: c.scaled(120), progressSteps: 2 })]
      : [textPart('live resubscribe sample')];
    const origin = await c.stream('message/stream', messageParams(parts), {
      closeOnFinal: true,
      totalMs: 10_000,
    });
    let taskId: unknown;
    // Resubscribe once the task is working, so the current status is known: working (C-10).
    for await (const ev of origin.events()) {
      if (isObject(ev.json) && isObject(ev.json.result)) taskId = ev.json.result.id;
      if (resultState(ev) !== 'submitted') break;
    }
    const sample = typeof taskId === 'string' ? await resubscribe(c, taskId) : undefined;
    await origin.done;
    return sample;
  },
);

async function both(c: CheckContext): Promise<Array<[string, Resubscription]>> {
  const out: Array<[string, Resubscription]> = [];
  const finished = await ofFinished(c);
  if (finished !== undefined) out.push(['completed task', finished]);
  const running = await ofRunning(c);
  if (running !== undefined) out.push(['running task', running]);
  if (out.every(([, r]) => r.results.length === 0)) c.notExercised('no resubscribe result was obtained');
  return out;
}

function each(
  samples: Array<[string, Resubscription]>,
  fn: (label: string, r: JsonObject, s: Resubscription) => void,
) {
  for (const [label, s] of samples)
    s.results.forEach((r, i) => fn(`${label}, result ${i + 1} of ${s.results.length}`, r, s));
}

verifies('2.10/resubscribe-id', 'every resubscribe result carries the requested task id', async (c) => {
  each(await both(c), (label, r, s) => {
    c.check(`${label}: id`, r.id, s.taskId);
  });
});

verifies(
  '2.10/resubscribe-status',
  'every result carries a status; the last one is the status tasks/get reports',
  async (c) => {
    const samples = await both(c);
    each(samples, (label, r) => c.check(`${label}: status.state`, statusOf(r)?.state, is.oneOf(TASK_STATES)));
    for (const [label, s] of samples) {
      const last = statusOf(s.results.at(-1));
      c.check(`${label}: state of the last result`, last?.state, statusOf(s.get)?.state);
      c.check(`${label}: message of the last result`, last?.message, statusOf(s.get)?.message);
    }
    const running = samples.find(([label]) => label === 'running task')?.[1];
    // Sent after the task was seen working, the first result is the status current then (C-10).
    if (running !== undefined && running.results.length > 1) {
      c.check(
        'running task: state of the first result',
        statusOf(running.results[0])?.state,
        is.oneOf(['working', 'completed']),
      );
    }
  },
);

verifies(
  '2.10/resubscribe-subscribed',
  'every resubscribe result carries subscribed as a boolean',
  async (c) => {
    each(await both(c), (label, r) =>
      c.check(`${label}: type of subscribed`, typeOf(r.subscribed), 'boolean'),
    );
  },
);

verifies(
  '2.10/resubscribe-subscribed-value',
  'subscribed is false for a finished task and true on live events',
  async (c) => {
    for (const [label, s] of await both(c)) {
      // C-09: a task already final gets subscribed false; C-10: every live event has subscribed true.
      const live = label === 'running task' && s.results.some((r) => r.final === false);
      s.results.forEach((r, i) =>
        c.check(`${label}, result ${i + 1}${live ? ' (live)' : ''}: subscribed`, r.subscribed, live),
      );
    }
  },
);

verifies('2.10/resubscribe-final', 'final is a boolean, true on the last result only', async (c) => {
  for (const [label, s] of await both(c)) {
    s.results.forEach((r, i, all) => {
      c.check(`${label}, result ${i + 1} of ${all.length}: final`, r.final, i === all.length - 1);
      // The reader stops at the first final result, so a final flag on a live update is seen here.
      if (r.final === true) {
        c.check(`${label}, result ${i + 1}: state of a final result`, statusOf(r)?.state, is.oneOf(FINAL));
      }
    });
  }
  const finished = await ofFinished(c);
  if (finished !== undefined) c.check('completed task: number of results (C-09)', finished.results.length, 1);
});

verifies(
  '2/extra-fields-tolerated',
  'resubscribe results validate with any extra fields they carry',
  async (c) => {
    each(await both(c), (label, r) => void checkSchemaWithExtras(c, 'resubscribe-result', r, label));
  },
  { crossSection: 'section 2 applies to every result: graded on each result type' },
);
