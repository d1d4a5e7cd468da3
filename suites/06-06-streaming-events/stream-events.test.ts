// 6.6 Streaming events: the SSE events of tasks/resubscribe follow the message/stream rules of 4.2,
// and every event of either method carries the request id (rulings C-31, C-13). The live resubscribe
// stream comes from another client while the original message/stream is still running.
import { suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { onceShared } from '../support/made-once.ts';
import { messageParams, textPart } from '../support/messages.ts';
import {
  checkEventIds,
  checkStreamRules,
  endedBeforeResubscribe,
  runStream,
  startLiveTask,
  type StreamRun,
  watchBudgets,
} from '../support/streams.ts';

suiteFile({
  cost: { requests: 1, turns: 1 },
});

const liveResubscribe = onceShared<StreamRun>();

/** One live resubscribe stream for the checks of this file. */
function resubscribeStream(c: CheckContext): Promise<StreamRun> {
  return liveResubscribe(c, async (c) => {
    const live = await startLiveTask(c);
    const run = await runStream(
      c,
      'tasks/resubscribe',
      { taskId: live.taskId },
      { client: c.newClient(), pace: { prepaid: true }, ...watchBudgets(c, live) },
    );
    await live.stream.done;
    endedBeforeResubscribe(c, run, live);
    return run;
  });
}

// Concurrent: the checks share one live stream (the first to ask opens it) and mostly wait for it.
verifies(
  '6.6/stream-events-as-4-2',
  'a live tasks/resubscribe stream follows every 4.2 rule',
  async (c) => checkStreamRules(c, await resubscribeStream(c)),
  { concurrent: true },
);

verifies(
  '6.6/stream-event-id',
  'every message/stream event carries the request id',
  async (c) => void checkEventIds(c, await runStream(c, 'message/stream', messageParams([textPart('ids')]))),
  { concurrent: true },
);

verifies(
  '6.6/stream-event-id',
  'every live tasks/resubscribe event carries the request id',
  async (c) => void checkEventIds(c, await resubscribeStream(c)),
  { concurrent: true },
);
