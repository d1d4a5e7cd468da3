// The queue behind limits.concurrentTasks (spec 8, spec 3 rows "submitted -> working" and
// "submitted -> canceled", ruled by C-21 and C-34): never more than the limit working at once, the
// overflow waits in submitted, starts first in, first out as slots free, and a queued task can be
// canceled and then never runs. One scenario serves every check that needs the queue, whatever section
// it belongs to (3, 4.3, 6 and 8): every slot is filled once per run, which on an agent paced at 60
// requests a minute is most of a minute. Tasks run until canceled (docs/directives.md).
import type { CheckWebhooks } from '../../harness/check/index.ts';
import { is, suiteFile, verifies, type CheckContext, type Delivery } from '../support/index.ts';
import { cardLimit, requireCardLimit, servedMethods, streamingClaimed } from '../support/card.ts';
import { captured, checkEvent, dataOf, eventOf } from '../support/deliveries.ts';
import { requireDirectives, scriptParts } from '../support/directives.ts';
import { errorData } from '../support/errors.ts';
import { cancelTask, fillSlots, openTask, type LiveTask } from '../support/live-tasks.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { resultOf, resultOfEvent, type JsonObject } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { checkSeenStates, streamSeen, type StreamSeen } from '../support/streams.ts';
import { getTask, isFinalState, notSeenIn, stateOf, statusOf } from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';
import { setConfig, SET } from '../support/webhooks.ts';

const QUEUE = 'every slot held, three tasks queued behind them';

suiteFile({
  cost: { requests: 0, turns: 0 },
});

const QUEUED_REASON = 'conformance: cancel while queued';
// How long the harness watches for a freed slot to be taken by the next queued task, on a fast agent
// (grown by the agent's turn latency, c.scaled). The spec bounds no dequeue time: not seeing it is no
// finding.
const DEQUEUE_WAIT_MS = 1_000;
// Samples taken this close to the system timeout (C-05) are ignored: a timed-out task and the task
// dequeued in its place could both be read as working within one sample.
const TIMEOUT_MARGIN_MS = 200;

interface Queue {
  limit: number;
  /** What the agent answered instead of a task, when it refused a task beyond its limit. */
  refusal?: unknown;
  /** The queued tasks in arrival order: [canceled while queued, dequeued first, dequeued second]. */
  queued: string[];
  /** States of the holders and of the queued tasks in the one read made while every slot was held. */
  heldStates: unknown[];
  queuedStates: unknown[];
  /** Most tasks seen working in one read of every live task (within the system timeout), and that read. */
  maxWorking: number;
  maxSample: unknown[];
  samples: number;
  /** The cancel of the first queued task, the holders read after it, and a read of it once every slot freed. */
  cancelResult: JsonObject | undefined;
  cancelRefusedAs: unknown;
  /** The holders' states read right after the cancel: all working, no slot had freed before it. */
  heldAfterCancel?: unknown[];
  canceledLater: JsonObject | undefined;
  canceledAt: number;
  /** The second queued task's state once the first slot freed (read until it left submitted). */
  dequeuedState: unknown;
  /** The queued tasks in the order they were seen working as slots were freed one at a time. */
  started: string[];
  dequeueWindowMs: number;
  /** When the harness canceled the second queued task (its last event is task.canceled). */
  dequeuedEndedAt: number;
  canceledStream?: StreamSeen;
  dequeuedStream?: StreamSeen;
  /** Task-level configurations of the first two queued tasks, when the agent took them. */
  hooks?: { canceled: string; dequeued: string };
  hooksSkipped?: string;
}

/** A queued task: by message/stream, so a refusal shows as the stream's answer instead of a task. */
async function openQueued(
  c: CheckContext,
  parts: readonly JsonObject[],
): Promise<{ task?: LiveTask; refusal?: unknown }> {
  if (!streamingClaimed(c)) return { task: await openTask(c, parts) };
  const stream = await c.stream('message/stream', messageParams(parts), {
    closeOnFinal: true,
    totalMs: 30_000,
  });
  for await (const ev of stream.events()) {
    const id = resultOfEvent(ev)?.id;
    if (typeof id === 'string') return { task: { taskId: id, stream } };
    await stream.close();
    return { refusal: ev.json };
  }
  return { refusal: stream.transcript.json ?? stream.transcript.error };
}

/** Task-level configurations for the first two queued tasks; an agent that refuses them skips the webhook checks only. */
async function queueHooks(c: CheckContext, ids: string[]): Promise<Pick<Queue, 'hooks' | 'hooksSkipped'>> {
  if (!servedMethods(c).includes(SET)) return { hooksSkipped: `the card does not list ${SET}` };
  const hooks = await c.webhooks();
  const set = await Promise.all(
    ids.slice(0, 2).map(async (taskId, i) => {
      const { token, url } = hooks.newUrl(`queued-${i}`);
      const { result } = await setConfig(c, { url }, taskId);
      return result?.configured === true ? token : undefined;
    }),
  );
  const [canceled, dequeued] = set;
  if (canceled === undefined || dequeued === undefined) {
    return { hooksSkipped: 'a task-level configuration of a queued task was not stored (graded in 4.6)' };
  }
  return { hooks: { canceled, dequeued } };
}

const queue = sharedSample(
  QUEUE,
  // At the card's limit of 4: the directive probe, the slots filled (message/stream, watched on
  // their streams until working), three queued tasks opened, two task-level sets, one tasks/get of
  // every task, the cancel of the first queued task and a read of the holders, then per freed slot
  // (two) a tasks/cancel and a tasks/get of each task still live, the clean-up cancels and a last
  // read of the canceled queued task.
  { requests: 32, turns: 7 },
  async (c): Promise<Queue> => {
    const limit = requireCardLimit(c, 'concurrentTasks');
    await requireDirectives(c, 'holding every slot with tasks that keep working until canceled');
    const timeout = cardLimit(c, 'systemTimeoutMs');
    const usableUntil = timeout === undefined ? Infinity : Date.now() + timeout - TIMEOUT_MARGIN_MS;
    const fill = await fillSlots(c);
    const holders = fill.holders.map((h) => h.taskId);
    const q: LiveTask[] = [];
    const gone = new Set<string>();
    const s: Queue = {
      limit,
      queued: [],
      heldStates: [],
      queuedStates: [],
      maxWorking: 0,
      maxSample: [],
      samples: 0,
      cancelResult: undefined,
      cancelRefusedAs: undefined,
      canceledLater: undefined,
      canceledAt: 0,
      dequeuedState: undefined,
      started: [],
      dequeueWindowMs: c.scaled(DEQUEUE_WAIT_MS),
      dequeuedEndedAt: 0,
    };
    /**
     * One tasks/get of every task the harness has not canceled: the queued tasks first, then the
     * holders (each group's reads at once); the most working kept. In that order the read counts what
     * was working at once: a holder (working since the slots were filled) read working after the queued
     * tasks were read was working while they were, even when a paced agent spreads the reads over
     * seconds and a holder meets its system timeout in between.
     */
    const sample = async (groups = [s.queued, holders]): Promise<Map<string, unknown>> => {
      const read = new Map<string, unknown>();
      for (const group of groups) {
        const live = group.filter((id) => !gone.has(id));
        const got = await Promise.all(live.map(async (id) => stateOf(await getTask(c, id))));
        live.forEach((id, i) => read.set(id, got[i]));
      }
      // Holders first in what the report shows.
      const ids = [...holders, ...s.queued].filter((id) => read.has(id));
      const states = ids.map((id) => read.get(id));
      const working = states.filter((x) => x === 'working').length;
      if (Date.now() < usableUntil) {
        s.samples += 1;
        if (working > s.maxWorking) [s.maxWorking, s.maxSample] = [working, states];
      }
      return new Map(ids.map((id, i) => [id, states[i]]));
    };
    // A task whose cancel the agent took is no longer read (its state says nothing of the others).
    const cancel = async (id: string, reason?: string) => {
      const ex = await cancelTask(c, id, reason);
      if (resultOf(ex)?.canceled === true) gone.add(id);
      return ex;
    };
    try {
      // Each queued task opened once the one before exists, so their arrival order is known.
      const scripts = [
        [textPart('queued, then canceled')],
        scriptParts('queued, dequeued first', { runUntilCanceled: true }),
        scriptParts('queued, dequeued second', { runUntilCanceled: true }),
      ];
      for (const parts of scripts) {
        const opened = await openQueued(c, parts);
        if (opened.task === undefined) {
          s.refusal = opened.refusal;
          return s;
        }
        q.push(opened.task);
        s.queued.push(opened.task.taskId);
      }
      Object.assign(s, await queueHooks(c, s.queued));
      const held = await sample();
      s.heldStates = holders.map((id) => held.get(id));
      s.queuedStates = s.queued.map((id) => held.get(id));
      // The first queued task, canceled while queued. A refusal is a finding when the task was still
      // queued: the refusal says so (data.currentState submitted), or the holders still held every slot.
      const [first, second] = s.queued as [string, string, string];
      s.canceledAt = Date.now();
      const canceled = await cancel(first, QUEUED_REASON);
      s.cancelResult = resultOf(canceled);
      s.cancelRefusedAs = errorData(canceled)?.currentState;
      // Whether a slot freed before the cancel (a holder ended by itself, e.g. at a short system timeout
      // on a loaded agent): then the task may have started first, and what it did says nothing of a
      // queued task's cancel. The holders only: the queued tasks were read with them just before.
      const after = await sample([holders]);
      s.heldAfterCancel = holders.map((id) => after.get(id));
      // Slots freed one at a time (holders first, then the queued tasks that started), each watched
      // until a waiting task takes it: the order they start in, and the first one's state.
      const waiting = new Set(s.queued.slice(1));
      while (waiting.size > 0) {
        const victim = [...holders, ...s.started].find((id) => !gone.has(id));
        if (victim === undefined) break;
        await cancel(victim);
        const deadline = Date.now() + s.dequeueWindowMs;
        let now = await sample();
        while (![...waiting].some((id) => now.get(id) === 'working') && Date.now() < deadline) {
          await sleep(Math.max(20, c.pollIntervalMs()));
          now = await sample();
        }
        if (s.started.length === 0) s.dequeuedState = now.get(second);
        const took = [...waiting].filter((id) => now.get(id) === 'working');
        if (took.length === 0) break;
        for (const id of took) {
          waiting.delete(id);
          s.started.push(id);
        }
      }
    } finally {
      s.dequeuedEndedAt = Date.now();
      const live = [...holders, ...s.queued].filter((id) => !gone.has(id));
      await Promise.allSettled(live.map((id) => cancelTask(c, id)));
      await Promise.allSettled(fill.holders.map((h) => h.stream?.close()));
    }
    // Read after every slot freed: a canceled task wrongly left in the queue would have started by then.
    await sleep(c.scaled(50));
    s.canceledLater = await getTask(c, q[0]!.taskId);
    if (q[0]!.stream !== undefined) s.canceledStream = await streamSeen(q[0]!.stream);
    if (q[1]!.stream !== undefined) s.dequeuedStream = await streamSeen(q[1]!.stream);
    await Promise.allSettled(q.map((t) => t.stream?.close()));
    return s;
  },
);

/** The queue read while every slot was held; not-exercised when the agent refused it or a slot freed first. */
async function heldQueue(c: CheckContext): Promise<Queue> {
  const s = await queue(c);
  if (s.refusal !== undefined) {
    c.notExercised(
      `the agent refused a task beyond limits.concurrentTasks (graded by 8/concurrent-overflow-queued): ${JSON.stringify(s.refusal)}`,
    );
  }
  // A queued task seen past submitted is a finding only while every slot was held in the same read.
  if (s.queuedStates.some((x) => x !== 'submitted') && s.heldStates.some((x) => x !== 'working')) {
    c.notExercised(
      `the ${s.limit} slot-holding tasks were not all working when the queued tasks were read (holders ${JSON.stringify(s.heldStates)}, queued ${JSON.stringify(s.queuedStates)}): a slot freed first`,
    );
  }
  return s;
}

// The checks wait on one scenario together.
const queueCheck = { concurrent: true, overflowsTasks: true };
// Why the queue's section 3 and 4.3 checks are filed here (each says so in its declaration).
const QUEUE_SCENARIO =
  'graded on the queue scenario: every slot is filled once per run, not once per section';

verifies(
  '3/new-task-submitted',
  'tasks queued behind limits.concurrentTasks read submitted',
  async (c) => {
    const s = await heldQueue(c);
    c.check('tasks/get states of the three queued tasks', s.queuedStates, [
      'submitted',
      'submitted',
      'submitted',
    ]);
  },
  { ...queueCheck, crossSection: QUEUE_SCENARIO },
);

verifies(
  '4.3/get-current-state',
  'a task queued behind limits.concurrentTasks reads submitted',
  async (c) => {
    const s = await heldQueue(c);
    c.check('tasks/get status.state', s.queuedStates[0], 'submitted');
  },
  { ...queueCheck, crossSection: QUEUE_SCENARIO },
);

verifies(
  '3/submitted-to-working-on-dequeue',
  'a queued task starts working when a slot frees, not before',
  async (c) => {
    const s = await heldQueue(c);
    c.check('state while every slot is held', s.queuedStates[1], 'submitted');
    // Still queued when the harness stopped watching: the spec bounds no time to dequeue.
    if (s.dequeuedState === 'submitted')
      notSeenIn(c, 'its start once a slot freed', 'submitted', s.dequeueWindowMs);
    const stream = s.dequeuedStream;
    if (isFinalState(s.dequeuedState)) {
      // Read after it had ended: a task that started may meet its own system timeout (C-05) before a
      // paced read (seconds later at 60 requests/min). That state is no proof it never worked; its
      // whole stream is, when the agent streams it.
      const shown = stream !== undefined && (stream.whole || stream.states.includes('working'));
      if (!shown) {
        c.notExercised(
          `the dequeued task had ended (${String(s.dequeuedState)}) when it was read, and ${stream === undefined ? 'no stream of it' : `its stream, cut before its end (${JSON.stringify(stream.states)}),`} shows whether it worked first`,
        );
      }
      c.info('state once a slot freed', `${String(s.dequeuedState)} when read: it had ended first`);
      c.check('its stream shows it working before it ended', stream!.states.includes('working'), true);
    } else {
      c.check('state once a slot freed', s.dequeuedState, 'working');
    }
    if (stream !== undefined) {
      checkSeenStates(c, 'stream states of the dequeued task', stream, ['submitted', 'working', 'canceled']);
    }
  },
  { ...queueCheck, crossSection: QUEUE_SCENARIO },
);

verifies(
  '3/cancel-from-submitted',
  'cancel of a queued task succeeds, and the task never starts working',
  async (c) => {
    const s = await heldQueue(c);
    c.require('state before the cancel', s.queuedStates[0], 'submitted');
    // Refused with a task no longer queued (dequeued and ended first: a slot freed, e.g. by the system
    // timeout, on a slow agent): the right answer then.
    if (s.cancelResult?.canceled !== true && s.cancelRefusedAs !== 'submitted' && slotFreed(s)) {
      c.notExercised(
        `the cancel was refused after a slot freed (holders then ${JSON.stringify(s.heldAfterCancel)}): the task may have been dequeued and ended first`,
      );
    }
    c.check('cancel result.canceled', s.cancelResult?.canceled, true);
    c.check('cancel result.status.state', stateOf(s.cancelResult), 'canceled');
    c.check('tasks/get state after the slots freed', stateOf(s.canceledLater), 'canceled');
    c.check('tasks/get status.reason', statusOf(s.canceledLater)?.reason, QUEUED_REASON);
    if (s.canceledStream !== undefined) {
      if (slotFreed(s) && s.canceledStream.states.includes('working')) startedFirst(c, s);
      checkSeenStates(c, 'stream states', s.canceledStream, ['submitted', 'canceled']);
    }
  },
  { ...queueCheck, crossSection: QUEUE_SCENARIO },
);

/** A holder was no longer working right after the cancel of the first queued task: a slot had freed. */
function slotFreed(s: Queue): boolean {
  return s.heldAfterCancel?.some((x) => x !== 'working') === true;
}

/** The first queued task may have started before its cancel: a slot freed (slotFreed). */
function startedFirst(c: CheckContext, s: Queue): never {
  return c.notExercised(
    `a slot freed around the cancel of the queued task (holders right after it: ${JSON.stringify(s.heldAfterCancel)}), so it may have started working first: what it did then says nothing of a queued task's cancel`,
  );
}

/**
 * The url of one queued task's configuration, read through this check's own webhook view (what it
 * expects of later deliveries is this check's), or not-exercised saying why there is none.
 */
async function queueHook(
  c: CheckContext,
  s: Queue,
  which: 'canceled' | 'dequeued',
): Promise<{ hooks: CheckWebhooks; token: string }> {
  if (s.hooks === undefined) c.notExercised(s.hooksSkipped ?? 'no task-level configuration was set');
  return { hooks: await c.webhooks(), token: s.hooks[which] };
}

verifies(
  '3/cancel-from-submitted-webhook',
  'canceling a queued task delivers task.canceled',
  async (c) => {
    const s = await heldQueue(c);
    // A slot freed first: the task may have started (its cancel then succeeds with task.working sent)
    // or ended (the cancel is refused); either way it was not a queued task's cancel.
    if (slotFreed(s)) startedFirst(c, s);
    c.require('tasks/cancel of the submitted task succeeded', s.cancelResult?.canceled, true);
    const at = await queueHook(c, s, 'canceled');
    const got = await captured(c, at, s.queued[0]!, 'task.canceled', s.canceledAt);
    checkEvent(c, got, 'task.canceled', { reason: QUEUED_REASON });
    const events = got.deliveries.map(eventOf);
    c.check('no task.working for a task canceled before it ran', events.includes('task.working'), false);
    const working = { token: at.token, taskId: s.queued[0]!, event: 'task.working' };
    at.hooks.expectNothingMore('task.working of the task canceled before it ran', working);
  },
  { ...queueCheck, crossSection: QUEUE_SCENARIO },
);

verifies(
  '3/working-webhook-optional',
  'a dequeued task may announce task.working',
  async (c) => {
    const s = await heldQueue(c);
    c.require('the second queued task was seen working once a slot freed', s.dequeuedState, 'working');
    const at = await queueHook(c, s, 'dequeued');
    const taskId = s.queued[1]!;
    const got = await captured(c, at, taskId, 'task.canceled', s.dequeuedEndedAt);
    const events = got.deliveries.map(eventOf);
    c.info('task.working delivered (optional per agent)', events.includes('task.working'));
    if (!events.includes('task.working')) return;
    // Events may arrive in any order (freedom webhook.delivery-order): a task.working that has not
    // arrived yet may still come once. One seen, any other (another delivery id) is a second one.
    const hits = got.deliveries.filter((d) => eventOf(d) === 'task.working');
    at.hooks.expectNothingMore(
      'task.working deliveries beyond the first',
      { token: at.token, taskId, event: 'task.working' },
      hits,
    );
    c.check('at most one task.working', hits.length, 1);
    const ended = got.deliveries.find((d) => eventOf(d) === 'task.canceled');
    const time = (d: Delivery | undefined, key: string): number => Date.parse(String(dataOf(d!)?.[key]));
    c.check(
      "task.working data.startedAt not after task.canceled data.canceledAt (the agent's own times)",
      time(hits[0], 'startedAt') <= time(ended, 'canceledAt'),
      true,
    );
    c.check('task.working data.taskId', dataOf(hits[0]!)?.taskId, taskId);
  },
  { ...queueCheck, crossSection: QUEUE_SCENARIO },
);

verifies(
  '8/concurrent-tasks-cap',
  'with limit + 3 tasks running, at most the limit work at once',
  async (c) => {
    const s = await queue(c);
    // A slow agent may take its whole system timeout to accept the tasks: reads after it are not
    // counted (tasks time out), and then nothing was observed.
    if (s.samples === 0) {
      c.notExercised(
        `no tasks/get read of the ${s.limit + s.queued.length} tasks fell within the agent's system timeout (the tasks took too long to open)`,
      );
    }
    c.check(
      'most tasks working in one read',
      s.maxWorking,
      is.where(`at most ${s.limit}`, (n) => (n as number) <= s.limit),
    );
    c.info('the read with the most tasks working (holders first)', s.maxSample);
    if (s.refusal !== undefined)
      c.info('the agent refused an overflow task (C-21 rules queueing)', s.refusal);
  },
  queueCheck,
);

verifies(
  '8/concurrent-overflow-queued',
  'overflow tasks wait in submitted and start in arrival order',
  async (c) => {
    const s = await queue(c);
    c.check('overflow task refused', s.refusal, is.absent());
    const ended = [...s.heldStates, ...s.queuedStates].filter(
      (x) => x === 'canceled' || x === 'completed' || x === 'failed',
    );
    // A task the agent ended on its own (its system timeout, C-05) frees a slot: the queue cannot be
    // shown, and nothing is wrong.
    if (ended.length > 0) {
      c.notExercised(
        `${ended.length} task(s) had already ended (holders ${JSON.stringify(s.heldStates)}) once the slots were taken: the agent ended them first (e.g. its system timeout)`,
      );
    }
    c.check('holders working and queued tasks submitted once the slots were taken', s.queuedStates, [
      'submitted',
      'submitted',
      'submitted',
    ]);
    // A queued task not seen starting within the harness's window (a slow agent, a paced read) is no
    // finding; one seen starting before an earlier one still queued is.
    const waited = s.queued.slice(1);
    const inOrder = s.started.every((id, i) => id === waited[i]);
    if (inOrder && s.started.length < waited.length) {
      c.notExercised(
        `${waited.length - s.started.length} queued task(s) not seen working within ${s.dequeueWindowMs} ms of a freed slot (the spec bounds no dequeue time); those seen started in arrival order`,
      );
    }
    c.check('queued tasks in the order they started (the canceled one aside)', s.started, waited);
  },
  queueCheck,
);
