// Spec 3 (rule 3, rows "submitted -> working" and "submitted -> canceled"): a new task starts in
// submitted, a task queued behind limits.concurrentTasks stays there until dequeued (C-21), and a
// queued task can be cancelled (C-34) and then never runs. One queue scenario serves three checks.
import { isNotExercisedStop, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { streamingClaimed } from '../support/card.ts';
import { requireDirectives, scriptParts } from '../support/directives.ts';
import { errorData } from '../support/errors.ts';
import { cancelTask, fillSlots, openTask, type LiveTask } from '../support/live-tasks.ts';
import { textPart } from '../support/messages.ts';
import { resultOf, type JsonObject } from '../support/rpc.ts';
import { checkSeenStates, streamSeen, type StreamSeen } from '../support/streams.ts';
import { awaitState, eventState, getTask, notSeenIn, stateOf, statusOf } from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';

suiteFile({
  // The queue scenario, run once for its three checks: the directive probe, the slots filled
  // (message/stream, tasks/get until working, at the card's limit of 4), two queued tasks opened and
  // read, the first canceled, one slot freed, the second read until it starts and canceled, the other
  // holders canceled, the first read again.
  cost: { requests: 0, turns: 0 },
  samples: { 'two tasks queued behind every slot': { requests: 20, turns: 7 } },
});

const QUEUED_REASON = 'conformance: cancel while queued';

interface QueueScenario {
  /** tasks/get states of the two queued tasks while every slot is held. */
  queuedStates: unknown[];
  /** Cancel of the first queued task, then its tasks/get once the slots freed, and its stream. */
  cancelResult: JsonObject | undefined;
  canceledLater: JsonObject | undefined;
  canceledStream?: StreamSeen;
  /** The second queued task once one slot freed (read until it left submitted, within dequeueWindowMs), and its stream. */
  dequeuedState: unknown;
  dequeueWindowMs: number;
  dequeuedStream?: StreamSeen;
}

// How long the harness watches the second queued task for its start once a slot freed (on a fast
// agent; grown by its turn latency). The spec bounds no dequeue time: not seeing it is no finding.
const DEQUEUE_WINDOW_MS = 2_000;

let scenario: Promise<QueueScenario> | undefined;

async function runScenario(c: CheckContext): Promise<QueueScenario> {
  await requireDirectives(c, 'holding every slot with running tasks');
  const fill = await fillSlots(c);
  let first: LiveTask, second: LiveTask;
  let queuedStates: unknown[], cancelResult: JsonObject | undefined, dequeuedState: unknown;
  try {
    first = await openTask(c, [textPart('queued, then canceled')]);
    second = await openTask(c, scriptParts('queued, then dequeued', { runUntilCanceled: true }));
    // Long enough for a dequeue that should not happen to show up in tasks/get.
    await sleep(c.scaled(50));
    queuedStates = [stateOf(await getTask(c, first.taskId)), stateOf(await getTask(c, second.taskId))];
    // A queued task seen past submitted is a finding only while every slot is still held.
    if (queuedStates.some((s) => s !== 'submitted'))
      await fill.requireHeld('when the queued tasks were read');
    const cancel = await cancelTask(c, first.taskId, QUEUED_REASON);
    cancelResult = resultOf(cancel);
    // A refused cancel is a finding when the task was still queued: the refusal itself says so
    // (data.currentState submitted), or the task still reads submitted after it, or every slot was
    // still held (read after). Otherwise the task may have been dequeued and ended first (a slot
    // freed, e.g. by the system timeout, on a slow agent): a refusal is then the right answer.
    const refusedAs = errorData(cancel)?.currentState;
    if (
      cancelResult?.canceled !== true &&
      refusedAs !== 'submitted' &&
      stateOf(await getTask(c, first.taskId)) !== 'submitted'
    ) {
      await fill.requireHeld('when the queued task was canceled');
    }
    // One slot freed (its holder no longer the clean-up's to cancel).
    const freed = fill.holders.shift()!;
    await cancelTask(c, freed.taskId);
    await freed.stream?.close();
    // The freed slot goes to the second task: the canceled first one must not take it.
    dequeuedState = stateOf(await awaitState(c, second.taskId, (s) => s !== 'submitted', DEQUEUE_WINDOW_MS));
    await cancelTask(c, second.taskId);
  } finally {
    await fill.release();
  }
  await sleep(c.scaled(50));
  const s: QueueScenario = {
    queuedStates,
    cancelResult,
    canceledLater: await getTask(c, first.taskId),
    dequeuedState,
    dequeueWindowMs: c.scaled(DEQUEUE_WINDOW_MS),
  };
  if (first.stream !== undefined) s.canceledStream = await streamSeen(first.stream);
  if (second.stream !== undefined) s.dequeuedStream = await streamSeen(second.stream);
  return s;
}

function queueScenario(c: CheckContext): Promise<QueueScenario> {
  if (scenario === undefined) {
    scenario = runScenario(c);
    // A queue the agent could not hold (not exercised: a slot freed first) is the answer for all three
    // checks, not a reason to fill the slots again; another error (a budget, no answer) is retried.
    scenario.catch((e: unknown) => {
      if (!isNotExercisedStop(e)) scenario = undefined;
    });
  }
  return scenario;
}

verifies(
  '3/new-task-submitted',
  'the first message/stream event of a new task is submitted',
  async (c) => {
    if (!streamingClaimed(c)) c.notExercised('the card says streaming is absent');
    const task = await openTask(c, [textPart('a new task')]);
    const transcript = await task.stream!.done;
    c.check('state of the first event', eventState(transcript.events[0]!), 'submitted');
  },
  { cost: { requests: 1, turns: 1 } },
);

verifies(
  '3/new-task-submitted',
  'tasks queued behind limits.concurrentTasks read submitted',
  async (c) => {
    const s = await queueScenario(c);
    c.check('tasks/get states of the two queued tasks', s.queuedStates, ['submitted', 'submitted']);
  },
  { concurrent: true, overflowsTasks: true },
);

verifies(
  '3/submitted-to-working-on-dequeue',
  'a queued task starts working when a slot frees, not before',
  async (c) => {
    const s = await queueScenario(c);
    c.check('state while every slot is held', s.queuedStates[1], 'submitted');
    // Still queued when the harness stopped watching: the spec bounds no time to dequeue.
    if (s.dequeuedState === 'submitted')
      notSeenIn(c, 'its start once a slot freed', 'submitted', s.dequeueWindowMs);
    c.check('state once a slot freed', s.dequeuedState, 'working');
    if (s.dequeuedStream !== undefined) {
      checkSeenStates(c, 'stream states of the dequeued task', s.dequeuedStream, [
        'submitted',
        'working',
        'canceled',
      ]);
    }
  },
  { concurrent: true, overflowsTasks: true },
);

verifies(
  '3/cancel-from-submitted',
  'cancel of a queued task succeeds, and the task never starts working',
  async (c) => {
    const s = await queueScenario(c);
    c.require('state before the cancel', s.queuedStates[0], 'submitted');
    c.check('cancel result.canceled', s.cancelResult?.canceled, true);
    c.check('cancel result.status.state', stateOf(s.cancelResult), 'canceled');
    // Read after every slot freed: a task wrongly left in the queue would have started by then.
    c.check('tasks/get state after the slots freed', stateOf(s.canceledLater), 'canceled');
    c.check('tasks/get status.reason', statusOf(s.canceledLater)?.reason, QUEUED_REASON);
    if (s.canceledStream !== undefined)
      checkSeenStates(c, 'stream states', s.canceledStream, ['submitted', 'canceled']);
  },
  { concurrent: true, overflowsTasks: true },
);
