// Spec 8 (limits.concurrentTasks) and 3 (submitted -> working when dequeued), ruled by C-21: never
// more than the limit working at once, the overflow waits in submitted and starts first in, first
// out. Tasks run until canceled (docs/directives.md) and are all canceled at the end.
import type { SseEvent, SseStream } from '../../harness/check/index.ts';
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { cardLimit, requireCardLimit } from '../support/card.ts';
import { directivePart, requireDirectives } from '../support/directives.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { sharedSample } from '../support/samples.ts';
import { getTask, stateOf } from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  samples: {
    // At the card's limit of 4: the directive probe, limit + 2 streams, one tasks/get of each, then per
    // freed slot (two) a tasks/cancel and a tasks/get of each task still live, and the cleanup cancels.
    scenario: { requests: 28, turns: 7 },
  },
});

// Beyond this many tasks the scenario (one stream per task) is too heavy for a conformance run.
const MAX_EXERCISED_LIMIT = 32;
// How long the harness watches for a freed slot to be taken by the next queued task, on a fast agent
// (grown by the agent's turn latency, c.scaled). The spec bounds no dequeue time: not seeing it is no
// finding.
const DEQUEUE_WAIT_MS = 1_000;
// Samples taken this close to the system timeout (C-05) are ignored: a timed-out task and the task
// dequeued in its place could both be read as working within one sample.
const TIMEOUT_MARGIN_MS = 200;

interface Scenario {
  limit: number;
  /** Task ids in arrival order. */
  ids: string[];
  /** What the agent answered instead of a task, when it refused an overflow task. */
  refusal?: unknown;
  /** Most tasks seen working in one tasks/get sample, and that sample. */
  maxWorking: number;
  maxSample: unknown[];
  samples: number;
  /** Every task's state once the first `limit` were working (or the wait was over). */
  filled: unknown[];
  /** Tasks seen submitted then. */
  queued: string[];
  /** The queued tasks in the order they started as slots were freed one at a time. */
  started: string[];
  /** How long the harness watched each freed slot (scaled), for a queued task not seen starting. */
  dequeueWindowMs: number;
}

function taskIdOf(ev: SseEvent | undefined): string | undefined {
  const id = (ev?.json as { result?: { id?: unknown } } | undefined)?.result?.id;
  return typeof id === 'string' ? id : undefined;
}

async function firstEvent(s: SseStream): Promise<SseEvent | undefined> {
  for await (const ev of s.events()) return ev;
  return undefined;
}

class Watcher {
  readonly seen: Scenario;
  private readonly usableUntil: number;
  /** Tasks the harness canceled: never read again (their state says nothing of the others). */
  readonly canceled = new Set<string>();

  constructor(
    private readonly c: CheckContext,
    limit: number,
  ) {
    this.seen = {
      limit,
      ids: [],
      maxWorking: 0,
      maxSample: [],
      samples: 0,
      filled: [],
      queued: [],
      started: [],
      dequeueWindowMs: c.scaled(DEQUEUE_WAIT_MS),
    };
    const timeout = cardLimit(c, 'systemTimeoutMs');
    this.usableUntil = timeout === undefined ? Infinity : Date.now() + timeout - TIMEOUT_MARGIN_MS;
  }

  /** Opens one stream per task, each after the previous task exists, so arrival order is known. */
  async open(count: number, streams: SseStream[]): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const params = messageParams([textPart(`slot ${i}`), directivePart({ runUntilCanceled: true })]);
      const s = await this.c.stream('message/stream', params, { totalMs: 30_000 });
      streams.push(s);
      const ev = await firstEvent(s);
      const id = taskIdOf(ev);
      if (id === undefined) {
        this.seen.refusal = ev?.json ?? s.transcript.json ?? s.transcript.error;
        return;
      }
      this.seen.ids.push(id);
    }
  }

  /** One tasks/get of every task the harness has not canceled; the largest working count is kept. */
  async sample(): Promise<unknown[]> {
    const states = await Promise.all(
      this.seen.ids.map(async (id) =>
        this.canceled.has(id) ? 'canceled' : stateOf(await getTask(this.c, id)),
      ),
    );
    const working = states.filter((s) => s === 'working').length;
    if (Date.now() < this.usableUntil) {
      this.seen.samples += 1;
      if (working > this.seen.maxWorking) {
        this.seen.maxWorking = working;
        this.seen.maxSample = states;
      }
    }
    return states;
  }

  /** Samples until `done(states)` holds or the wait is over. */
  async until(done: (states: unknown[]) => boolean): Promise<unknown[]> {
    const deadline = Date.now() + this.seen.dequeueWindowMs;
    let states = await this.sample();
    while (!done(states) && Date.now() < deadline) {
      await sleep(20);
      states = await this.sample();
    }
    return states;
  }

  /** Cancels the working tasks one by one and records which queued task takes each freed slot. */
  async drain(states: unknown[]): Promise<void> {
    const { ids } = this.seen;
    this.seen.filled = states;
    this.seen.queued = ids.filter((_, i) => states[i] === 'submitted');
    const waiting = new Set(this.seen.queued);
    for (const id of ids.filter((_, i) => states[i] === 'working')) {
      if (waiting.size === 0) return;
      await this.c.rpc('tasks/cancel', { taskId: id });
      this.canceled.add(id);
      const now = await this.until((s) => ids.some((qid, i) => waiting.has(qid) && s[i] === 'working'));
      for (const [i, qid] of ids.entries()) {
        if (waiting.has(qid) && now[i] === 'working') {
          waiting.delete(qid);
          this.seen.started.push(qid);
        }
      }
    }
  }
}

/** The whole scenario once per file: both checks read what it observed. */
const scenario = sharedSample('scenario', async (c): Promise<Scenario> => {
  const limit = requireCardLimit(c, 'concurrentTasks');
  const watcher = new Watcher(c, limit);
  const streams: SseStream[] = [];
  try {
    await watcher.open(limit + 2, streams);
    const states = await watcher.until((s) => s.filter((x) => x === 'working').length >= limit);
    await watcher.drain(states);
  } finally {
    const live = watcher.seen.ids.filter((taskId) => !watcher.canceled.has(taskId));
    await Promise.all(live.map((taskId) => c.client.rpc('tasks/cancel', { taskId })));
    await Promise.all(streams.map((s) => s.close()));
  }
  return watcher.seen;
});

async function preconditions(c: CheckContext): Promise<void> {
  const limit = requireCardLimit(c, 'concurrentTasks');
  if (limit > MAX_EXERCISED_LIMIT) {
    c.notExercised(`limits.concurrentTasks ${limit} needs more than ${MAX_EXERCISED_LIMIT} running tasks`);
  }
  const caps = (c.card as { capabilities?: { streaming?: unknown } } | null)?.capabilities;
  if (caps?.streaming === false) c.notExercised('the scenario follows its tasks with message/stream');
  await requireDirectives(c, 'tasks that keep working until canceled');
}

verifies(
  '8/concurrent-tasks-cap',
  'with limit + 2 tasks running, at most the limit work at once',
  async (c) => {
    await preconditions(c);
    const seen = await scenario(c);
    // A slow agent may take its whole system timeout to accept limit + 2 tasks: samples after it are
    // not counted (tasks time out), and then nothing was observed.
    if (seen.samples === 0) {
      c.notExercised(
        `no tasks/get sample of the ${seen.ids.length} tasks fell within the agent's system timeout ` +
          `(the tasks took too long to open); states at the end: ${JSON.stringify(seen.filled)}`,
      );
    }
    c.check(
      'most tasks working in one sample',
      seen.maxWorking,
      is.where(`at most ${seen.limit}`, (n) => (n as number) <= seen.limit),
    );
    c.info('the sample with the most tasks working', seen.maxSample);
    if (seen.refusal !== undefined)
      c.info('the agent refused an overflow task (C-21 rules queueing)', seen.refusal);
  },
  { overflowsTasks: true },
);

verifies(
  '8/concurrent-overflow-queued',
  'overflow tasks wait in submitted and start in arrival order',
  async (c) => {
    await preconditions(c);
    const seen = await scenario(c);
    c.check('overflow task refused', seen.refusal, is.absent());
    // A task the agent ended on its own (its system timeout, C-05) while the harness opened the others
    // frees a slot: the queue cannot be shown, and nothing is wrong.
    const ended = seen.filled.filter((s) => s === 'canceled' || s === 'completed' || s === 'failed');
    if (ended.length > 0) {
      c.notExercised(
        `${ended.length} task(s) had already ended (${JSON.stringify(seen.filled)}) once the slots were taken: the agent ended them first (e.g. its system timeout)`,
      );
    }
    c.check('tasks accepted', seen.ids.length, seen.limit + 2);
    // Another check's leftover task may hold a slot, so more than two may wait: all must be submitted.
    c.check(
      'states once the slots were taken',
      seen.filled,
      is.where('working or submitted, at least two submitted', (v) => {
        const states = v as unknown[];
        return states.every((s) => s === 'working' || s === 'submitted') && seen.queued.length >= 2;
      }),
    );
    // A queued task not seen starting within the harness's window (a slow agent, a paced read) is no
    // finding; one seen starting before an earlier one still queued is.
    const inOrder = seen.started.every((id, i) => id === seen.queued[i]);
    if (inOrder && seen.started.length < seen.queued.length) {
      c.notExercised(
        `${seen.queued.length - seen.started.length} queued task(s) not seen working within ${seen.dequeueWindowMs} ms of a freed slot (the spec bounds no dequeue time); those seen started in arrival order`,
      );
    }
    c.check('queued tasks in the order they started', seen.started, seen.queued);
  },
  { overflowsTasks: true },
);
