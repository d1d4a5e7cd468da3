// One task with progress steps (a2a:directive delayMs + progressSteps), polled with tasks/get from
// creation to its end (spec 4.3, C-24, C-35). Made once per file and read by several checks at once.
import type { CheckContext } from '../support/index.ts';
import { requireDirectives, scriptParts } from '../support/directives.ts';
import { openTask } from '../support/live-tasks.ts';
import { onceShared } from '../support/made-once.ts';
import type { JsonObject } from '../support/rpc.ts';
import { declareSample } from '../support/samples.ts';
import { getTask, isFinalState, stateOf } from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';

export interface ProgressTrace {
  taskId: string;
  /** Every tasks/get result, in order, the last one final. */
  reads: Array<JsonObject | undefined>;
  /** The scripted work (delayMs), grown by the agent's turn latency. */
  delayMs: number;
}

// 300 ms in 3 steps on a fast agent (grown by its turn latency, c.scaled). The reads come at the
// moments the script makes interesting: once the task exists, in the middle of each step, and once its
// work should be over (then again, spaced by a step, until it ends or the window closes).
const SCRIPT = { delayMs: 300, progressSteps: 3 };
const BUDGET_MS = 3_000;

const trace = onceShared<ProgressTrace>(true);

async function poll(c: CheckContext): Promise<ProgressTrace> {
  await requireDirectives(c, 'a task that reports progress (delayMs, progressSteps)');
  const script = { ...SCRIPT, delayMs: c.scaled(SCRIPT.delayMs) };
  const { taskId } = await openTask(c, scriptParts('progress', script));
  const opened = Date.now();
  const step = script.delayMs / script.progressSteps;
  const moments = [
    0,
    ...Array.from({ length: script.progressSteps }, (_, k) => (k + 0.5) * step),
    script.delayMs + step / 2,
  ];
  const reads: Array<JsonObject | undefined> = [];
  const deadline = opened + c.scaled(BUDGET_MS);
  for (let i = 0; ; i += 1) {
    const at = opened + (moments[i] ?? script.delayMs + (i - moments.length + 1.5) * step);
    if (at > Date.now()) await sleep(at - Date.now());
    const task = await getTask(c, taskId);
    reads.push(task);
    if (isFinalState(stateOf(task)) || Date.now() >= deadline)
      return { taskId, reads, delayMs: script.delayMs };
  }
}

// message/stream of a 300 ms task in 3 steps (scaled), a tasks/get once it exists, one in the middle
// of each step and one after its end.
declareSample('a task polled from creation to its end', { requests: 6, turns: 1 });

/** The trace, polled by the first check that asks; a failed attempt is retried by the next. */
export function progressTrace(c: CheckContext): Promise<ProgressTrace> {
  return trace(c, poll);
}
