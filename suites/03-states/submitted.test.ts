// Spec 3 (rule 3): a new task starts in submitted, as the first message/stream event shows. A task
// queued behind limits.concurrentTasks (C-21) is read in the queue scenario that serves every queue
// check, suites/08-limits/concurrent-tasks.test.ts.
import { suiteFile, verifies } from '../support/index.ts';
import { streamingClaimed } from '../support/card.ts';
import { openTask } from '../support/live-tasks.ts';
import { textPart } from '../support/messages.ts';
import { eventState } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
});

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
