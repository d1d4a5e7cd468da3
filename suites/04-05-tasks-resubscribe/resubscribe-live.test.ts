// 4.5 tasks/resubscribe on a task that is still streaming (rulings C-10, C-31): from another client
// the answer is an SSE stream like message/stream that runs to the final event; includeHistory true
// replays the earlier statuses first (final false), false or absent starts at the current status.
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { resultOfEvent } from '../support/rpc.ts';
import {
  checkContentType,
  checkSingleFinal,
  endedBeforeResubscribe,
  eventSummary,
  foldedStates,
  requireEnded,
  runStream,
  startLiveTask,
  type StreamedTask,
  type StreamRun,
  watchBudgets,
} from '../support/streams.ts';
import { eventState } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 3, turns: 1 },
});

async function resubscribe(c: CheckContext, live: StreamedTask, extra: object = {}): Promise<StreamRun> {
  // Its place in the agent's pace was kept when the live task's stream left (startLiveTask).
  return runStream(
    c,
    'tasks/resubscribe',
    { taskId: live.taskId, ...extra },
    { client: c.newClient(), pace: { prepaid: true }, ...watchBudgets(c, live) },
  );
}

verifies(
  '4.5/resubscribe-live-stream',
  'another client resubscribing to a running task gets the stream to its final event',
  async (c) => {
    const live = await startLiveTask(c);
    const run = await resubscribe(c, live);
    const original = await live.stream.done;
    endedBeforeResubscribe(c, run, live);
    checkContentType(c, run.t);
    checkSingleFinal(c, run.t);
    c.check(
      'result.id of every event',
      run.t.events.map((ev) => resultOfEvent(ev)?.id),
      is.where(`every id ${live.taskId}`, (ids) => (ids as unknown[]).every((id) => id === live.taskId)),
    );
    // Both subscribers watched the same task, so both must end in the same final state.
    const last = (t: typeof run.t): unknown => eventState(t.events[t.events.length - 1]);
    c.check('final state (resubscribe vs original stream)', last(run.t), last(original));
  },
  { concurrent: true },
);

/** The state the task had reported on the original stream when the resubscribes were sent. */
const REPORTED = 'working';

verifies(
  '4.5/resubscribe-include-history',
  'includeHistory true replays earlier states, false and absent start at the current one',
  async (c) => {
    const live = await startLiveTask(c, REPORTED, 3);
    const [withHistory, without, byDefault] = await Promise.all([
      resubscribe(c, live, { includeHistory: true }),
      resubscribe(c, live, { includeHistory: false }),
      resubscribe(c, live),
    ]);
    await live.stream.done;
    for (const run of [withHistory, without, byDefault]) {
      endedBeforeResubscribe(c, run, live);
      requireEnded(c, run.t);
    }
    c.info('includeHistory true', eventSummary(withHistory.t));
    const replay = foldedStates(withHistory.t);
    c.check(
      'includeHistory true: states (repeats folded)',
      replay,
      is.where(
        '[submitted, working, ...] (the earlier statuses first, oldest first)',
        () => replay[0] === 'submitted' && replay[1] === 'working',
      ),
    );
    c.check('includeHistory true: first event final', resultOfEvent(withHistory.t.events[0])?.final, false);
    const notStale = is.where(
      `the current state (${REPORTED} or later), not submitted`,
      (s) => s !== 'submitted' && s !== undefined,
    );
    c.check('includeHistory false: first state', eventState(without.t.events[0]), notStale);
    c.check('includeHistory absent: first state', eventState(byDefault.t.events[0]), notStale);
  },
  { concurrent: true },
);
