// Spec 3 (rule 3, rows "submitted -> working" and "submitted -> canceled"): a new task starts in
// submitted, a task queued behind limits.concurrentTasks stays there until dequeued (C-21), and a
// queued task can be cancelled (C-34) and then never runs.
import {
  cancelTask,
  eventState,
  fillSlots,
  openTask,
  scriptParts,
  sleep,
  streamingClaimed,
  streamStates,
  awaitState,
} from '../support/lifecycle-area.ts';
import {
  getTask,
  requireDirectives,
  resultOf,
  stateOf,
  statusOf,
  textPart,
  verifies,
} from '../support/index.ts';

verifies('3/new-task-submitted', 'the first message/stream event of a new task is submitted', async (c) => {
  if (!streamingClaimed(c)) c.notExercised('the card says streaming is absent');
  const task = await openTask(c, [textPart('a new task')]);
  const transcript = await task.stream!.done;
  c.check('state of the first event', eventState(transcript.events[0]!), 'submitted');
});

verifies('3/new-task-submitted', 'a task queued behind limits.concurrentTasks reads submitted', async (c) => {
  await requireDirectives(c, 'holding every slot with running tasks');
  const fill = await fillSlots(c);
  try {
    const queued = await openTask(c, [textPart('queued')]);
    // Long enough for a dequeue that should not happen to show up in tasks/get.
    await sleep(60);
    c.check('tasks/get state of the queued task', stateOf(await getTask(c, queued.taskId)), 'submitted');
    await cancelTask(c, queued.taskId);
  } finally {
    await fill.release();
  }
});

verifies(
  '3/submitted-to-working-on-dequeue',
  'a queued task starts working when a slot frees, not before',
  async (c) => {
    await requireDirectives(c, 'holding every slot with running tasks');
    const fill = await fillSlots(c);
    try {
      const queued = await openTask(c, scriptParts('queued', { runUntilCanceled: true }));
      await sleep(60);
      c.check('state while every slot is held', stateOf(await getTask(c, queued.taskId)), 'submitted');
      await cancelTask(c, fill.holders[0]!.taskId);
      const after = await awaitState(c, queued.taskId, (s) => s !== 'submitted', 2_000);
      c.check('state once a slot freed', stateOf(after), 'working');
      await cancelTask(c, queued.taskId);
      if (queued.stream !== undefined) {
        c.check('stream states of the queued task', await streamStates(queued.stream), [
          'submitted',
          'working',
          'canceled',
        ]);
      }
    } finally {
      await fill.release();
    }
  },
);

verifies(
  '3/cancel-from-submitted',
  'cancel of a queued task succeeds, and the task never starts working',
  async (c) => {
    await requireDirectives(c, 'holding every slot with running tasks');
    const fill = await fillSlots(c);
    let taskId = '';
    let states: unknown[] | undefined;
    try {
      const queued = await openTask(c, [textPart('queued, then canceled')]);
      taskId = queued.taskId;
      await sleep(30);
      c.require('state before the cancel', stateOf(await getTask(c, taskId)), 'submitted');
      const ex = await cancelTask(c, taskId, 'conformance: cancel while queued');
      const result = resultOf(ex);
      c.check('cancel result.canceled', result?.canceled, true);
      c.check('cancel result.status.state', stateOf(result), 'canceled');
      if (queued.stream !== undefined) states = await streamStates(queued.stream);
    } finally {
      await fill.release();
    }
    // Slots are free now: a task wrongly left in the queue would start here.
    await sleep(60);
    const task = await getTask(c, taskId);
    c.check('tasks/get state after the slots freed', stateOf(task), 'canceled');
    c.check('tasks/get status.reason', statusOf(task)?.reason, 'conformance: cancel while queued');
    if (states !== undefined) c.check('stream states', states, ['submitted', 'canceled']);
  },
);
