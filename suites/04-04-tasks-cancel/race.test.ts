// Spec 4.4 / 7 (-32003 "Task may have completed during cancellation") and C-08: a cancel racing the
// task's own end either wins (canceled for good) or loses with an error naming the final state the
// task keeps. Black-box: cancels fired at short tasks; deterministic: a2a:directive finishOnCancel.
import { ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { directivesHonoured, requireDirectives, scriptParts } from '../support/directives.ts';
import type { DirectiveFields } from '../support/directives.ts';
import { errorData } from '../support/errors.ts';
import { cancelTask, openTask, requireWorking } from '../support/live-tasks.ts';
import { errorOf, resultOf } from '../support/rpc.ts';
import { streamSeen } from '../support/streams.ts';
import { awaitState, getTask, isFinalState, stateOf } from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';
import { endedBefore } from '../support/ended-first.ts';

suiteFile({
  // A finishOnCancel task: message/stream, tasks/get until working, tasks/cancel, tasks/get.
  cost: { requests: 4, turns: 1 },
  // Twelve races in a row, each a scripted task grown by two turns (c.scaled): long on a slow agent.
  span: 'long',
});

// Races side by side: each is its own task, cancelled and read by its own requests, so two overlap
// their round trips and scripted lengths (on a slow link or agent, twelve in a row are the file's time)
// without holding more than two of the agent's task slots.
const RACE_LANES = { lanes: 2 };
// Twelve races, enough for both outcomes to occur on a target with jittered short tasks. The first is
// the most telling: a plain task whose 15 ms of work ends about when the cancel arrives (on a paced or
// distant agent it has ended, and the cancel must lose naming the final state it keeps).
const RACE_ORDER: readonly number[] = [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const JITTER_MS = [0, 15, 50, 150];
const LOSING_CODES: readonly unknown[] = [
  ERROR_CODES.TASK_ALREADY_COMPLETED,
  ERROR_CODES.TASK_ALREADY_CANCELED,
  ERROR_CODES.CANCELLATION_FAILED,
];

type CancelAnswer =
  | { kind: 'result'; canceled: unknown; state: unknown }
  | { kind: 'error'; code: unknown; currentState: unknown };

interface RaceOutcome {
  race: number;
  taskId: string;
  directive?: DirectiveFields;
  cancel: CancelAnswer;
  /** Stream states (repeats collapsed), when the target streams and the stream got to its end. */
  streamed?: unknown[];
  /** Why the stream's states are not graded: the harness stopped it short. */
  streamCut?: string;
  /** tasks/get state once the task ended. */
  finalState: unknown;
  /** tasks/get state read again after every race ended. */
  laterState: unknown;
}

/** Why an outcome is inconsistent (C-08), or null when it is not. */
function inconsistency(o: RaceOutcome): string | null {
  const end = o.finalState;
  if (!isFinalState(end)) return `the task did not end (tasks/get: ${String(end)})`;
  if (o.laterState !== end) return `the final state changed from ${String(end)} to ${String(o.laterState)}`;
  const streamEnd = o.streamed?.at(-1);
  if (o.streamed !== undefined && streamEnd !== end) return `the stream ended ${String(streamEnd)}`;
  if (o.cancel.kind === 'result') {
    if (end !== 'canceled') return `the cancel succeeded but the task ended ${String(end)}`;
    if (o.streamed?.some((s) => s === 'completed' || s === 'failed')) return 'the stream showed another end';
    return null;
  }
  const { code, currentState } = o.cancel;
  const variant = code === ERROR_CODES.TASK_NOT_FOUND && isFinalState(currentState); // C-06 note 1 shape
  if (!LOSING_CODES.includes(code) && !variant) return `error ${String(code)} is not a lost race (C-08)`;
  if (currentState !== undefined && currentState !== end) {
    return `error data.currentState ${String(currentState)} but the task ended ${String(end)}`;
  }
  if (code === ERROR_CODES.TASK_ALREADY_CANCELED && end !== 'canceled')
    return `-32002 but ended ${String(end)}`;
  if (code !== ERROR_CODES.TASK_ALREADY_CANCELED && end === 'canceled')
    return `${String(code)} but ended canceled`;
  return null;
}

async function race(c: CheckContext, i: number, directive?: DirectiveFields): Promise<RaceOutcome> {
  const task = await openTask(c, scriptParts(`race ${i}`, directive));
  const ex = await cancelTask(c, task.taskId, 'conformance: race');
  const result = resultOf(ex);
  const cancel: CancelAnswer = result
    ? { kind: 'result', canceled: result.canceled, state: stateOf(result) }
    : { kind: 'error', code: errorOf(ex)?.code, currentState: errorData(ex)?.currentState };
  const seen = task.stream === undefined ? undefined : await streamSeen(task.stream);
  const finalState = stateOf(await awaitState(c, task.taskId, isFinalState, 2_000));
  const outcome: RaceOutcome = { race: i, taskId: task.taskId, cancel, finalState, laterState: undefined };
  if (directive !== undefined) outcome.directive = directive;
  if (seen?.whole === true) outcome.streamed = seen.states;
  else if (seen !== undefined) outcome.streamCut = `${JSON.stringify(seen.states)} before ${seen.cut ?? ''}`;
  return outcome;
}

/**
 * Whether the agent said the task had ended: a cancel result (canceled), or a refusal naming a final
 * data.currentState. A task read unfinished after that is a finding; without it, a task still running
 * when the harness stopped watching (its window, not the spec's) is no evidence either way.
 */
function agentSaidEnded(o: RaceOutcome): boolean {
  return o.cancel.kind === 'result' || isFinalState(o.cancel.currentState);
}

/** Grades one race once its task ended and was read again (C-08). */
function grade(c: CheckContext, o: RaceOutcome): void {
  if (o.streamCut !== undefined) c.info(`race #${o.race}: stream states ${o.streamCut} (not graded)`);
  if (!isFinalState(o.finalState) && !agentSaidEnded(o)) {
    c.info(
      `race #${o.race}: still ${String(o.finalState)} when the harness stopped watching, after a cancel answered error ${String(o.cancel.kind === 'error' ? o.cancel.code : '')} without a final currentState (not graded)`,
    );
    return;
  }
  c.check(
    `race #${o.race}`,
    o,
    is.where(
      'a consistent end (C-08): canceled for good, or an error naming the kept final state',
      () => inconsistency(o) === null,
    ),
  );
}

verifies(
  '4.4/cancel-race-consistent',
  'cancels fired at short tasks either win for good or lose with the final state kept',
  async (c) => {
    const directives = await directivesHonoured(c);
    const directive = (i: number): DirectiveFields | undefined =>
      directives ? { delayMs: JITTER_MS[i % JITTER_MS.length]!, finishOnCancel: i % 3 === 2 } : undefined;
    const outcomes: RaceOutcome[] = [];
    // One race per case: a cancel fired at a short task, the task read once it ended and read again.
    await c.each(
      'races of a cancel against a short task',
      RACE_ORDER,
      async (i) => {
        const o = await race(c, i, directive(i));
        // A late agent result applied after the race would show in this second read.
        await sleep(c.scaled(50));
        o.laterState = stateOf(await getTask(c, o.taskId));
        outcomes.push(o);
        grade(c, o);
      },
      RACE_LANES,
    );
    const won = outcomes.filter((o) => o.cancel.kind === 'result').length;
    c.info(
      `cancels won ${won} of ${outcomes.length} races`,
      outcomes.map((o) => o.cancel),
    );
  },
  {
    // The directive probe (once per file), then per race: message/stream, tasks/cancel, two tasks/get.
    cost: { requests: 5, turns: 2 },
    property: { requests: 4, turns: 1, cases: RACE_ORDER.length },
  },
);

/** A cancel that reaches a finishOnCancel task: the task ends `expected` and the cancel loses. */
async function deterministicLoss(
  c: CheckContext,
  directive: DirectiveFields,
  expected: string,
): Promise<void> {
  await requireDirectives(c, 'a task that finishes when cancelled (finishOnCancel)');
  const script =
    directive.delayMs === undefined ? directive : { ...directive, delayMs: c.scaled(directive.delayMs) };
  const task = await openTask(c, scriptParts('lose the race', script));
  await requireWorking(c, task, script.delayMs ?? 0);
  const ex = await cancelTask(c, task.taskId);
  const code = errorOf(ex)?.code;
  if (code !== ERROR_CODES.CANCELLATION_FAILED && code !== ERROR_CODES.TASK_ALREADY_COMPLETED) {
    // The system timeout (C-05) may end the task while the cancel is on its way: then nothing raced.
    const ended = endedBefore(c, task, ex);
    if (ended !== undefined) c.notExercised(ended);
  }
  c.check('cancel result', resultOf(ex), is.absent());
  if (code !== ERROR_CODES.CANCELLATION_FAILED)
    c.info(`the lost race was answered ${String(code)}, not -32003`);
  c.check(
    'cancel error.code',
    code,
    is.oneOf([ERROR_CODES.CANCELLATION_FAILED, ERROR_CODES.TASK_ALREADY_COMPLETED]),
  );
  c.check('cancel error.data.currentState', errorData(ex)?.currentState, is.oneOf([expected, undefined]));
  await sleep(c.scaled(50));
  const got = await getTask(c, task.taskId);
  c.check('tasks/get status.state', stateOf(got), expected);
  if (task.stream !== undefined) {
    const seen = await streamSeen(task.stream);
    if (seen.whole) c.check('last stream state', seen.states.at(-1), expected);
    else c.info(`stream states ${JSON.stringify(seen.states)} before ${seen.cut ?? ''} (its end not graded)`);
  }
}

verifies(
  '4.4/cancel-race-consistent',
  'a cancel that makes the task complete (finishOnCancel) is an error and the task stays completed',
  (c) => deterministicLoss(c, { runUntilCanceled: true, finishOnCancel: true }, 'completed'),
  { concurrent: true },
);

verifies(
  '4.4/cancel-race-consistent',
  'a cancel that makes the task fail (finishOnCancel) is an error and the task stays failed',
  (c) => deterministicLoss(c, { delayMs: 300, fail: 'conformance failure', finishOnCancel: true }, 'failed'),
  { concurrent: true },
);
