// The observer of the model-based property of spec section 3: it keeps, per task, every state the
// target reported (tasks/get, cancel answers, send results, streams) and finds what the table
// forbids: a move back, a final state left, channels disagreeing on the end, a cancel not honoured.
import type { SseStream } from '../../harness/check/index.ts';
import { ERROR_CODES, type AnsweredExchange, type CheckContext } from '../support/index.ts';
import type { DirectiveFields } from '../support/directives.ts';
import { errorData } from '../support/errors.ts';
import { errorOf, resultOf } from '../support/rpc.ts';
import { eventState, illegalStep, isFinalState, stateOf } from '../support/tasks.ts';

/** How a generated task ends when nobody cancels it (a2a:directive, docs/directives.md). */
export type Ending = 'complete' | 'fail' | 'runUntilCanceled';

export interface Script {
  delayMs: number;
  progressSteps: number;
  ending: Ending;
  finishOnCancel: boolean;
}

export function directiveOf(s: Script): DirectiveFields {
  const d: DirectiveFields = { delayMs: s.delayMs, progressSteps: s.progressSteps };
  if (s.ending === 'fail') d.fail = 'generated failure';
  if (s.ending === 'runUntilCanceled') d.runUntilCanceled = true;
  if (s.finishOnCancel) d.finishOnCancel = true;
  return d;
}

/** The final states a script allows: its own outcome, or canceled. */
function allowedEnds(s: Script): readonly string[] {
  if (s.ending === 'fail') return ['failed', 'canceled'];
  if (s.ending === 'runUntilCanceled') return s.finishOnCancel ? ['completed', 'canceled'] : ['canceled'];
  return ['completed', 'canceled'];
}

export interface ObservedTask {
  label: string;
  taskId: string;
  /** Undefined on a target without the directive contract: the outcome is then not checked. */
  script: Script | undefined;
  /** States read by the sequential commands (get, cancel, send, resubscribe answers), in order. */
  seq: unknown[];
  /** Final states reported anywhere, with where from. */
  finals: Array<{ via: string; state: unknown }>;
  /** Streams of the task (message/stream, tasks/resubscribe), checked once they ended. */
  streams: Array<{ via: string; stream: SseStream }>;
  /** Final states that the cancel answers imply. */
  impliedBy: Array<{ via: string; states: readonly string[] }>;
}

/** A property violation: thrown so that fast-check records the command list as counterexample. */
export class StateViolation extends Error {
  constructor(task: ObservedTask, what: string) {
    super(`${task.label} (${task.taskId}): ${what}; states read in order ${JSON.stringify(task.seq)}`);
    this.name = 'StateViolation';
  }
}

export class Observer {
  readonly tasks: ObservedTask[] = [];

  constructor(
    readonly c: CheckContext,
    readonly directives: boolean,
  ) {}

  add(taskId: string, script: Script | undefined): ObservedTask {
    const task: ObservedTask = {
      label: `task #${this.tasks.length}`,
      taskId,
      script,
      seq: [],
      finals: [],
      streams: [],
      impliedBy: [],
    };
    this.tasks.push(task);
    return task;
  }

  /** A state read by a sequential command: it must extend the sequence along the table. */
  see(task: ObservedTask, state: unknown, via: string): void {
    task.seq.push(state);
    const bad = illegalStep(task.seq);
    if (bad !== null) throw new StateViolation(task, `${via} read an illegal step ${bad}`);
    if (isFinalState(state)) task.finals.push({ via, state });
  }

  /** A cancel answer: a success ends the task canceled; an error names or implies a final state. */
  seeCancel(task: ObservedTask, ex: AnsweredExchange, via: string): void {
    const result = resultOf(ex);
    if (result !== undefined) {
      const before = task.seq.at(-1);
      if (isFinalState(before)) {
        throw new StateViolation(task, `${via} succeeded on a task already read ${String(before)}`);
      }
      this.see(task, stateOf(result), `${via} result`);
      task.impliedBy.push({ via, states: ['canceled'] });
      return;
    }
    const code = errorOf(ex)?.code;
    const current = errorData(ex)?.currentState;
    if (typeof current === 'string') this.see(task, current, `${via} error data.currentState`);
    if (code === ERROR_CODES.TASK_ALREADY_CANCELED) task.impliedBy.push({ via, states: ['canceled'] });
    if (code === ERROR_CODES.TASK_ALREADY_COMPLETED || code === ERROR_CODES.CANCELLATION_FAILED) {
      task.impliedBy.push({ via, states: ['completed', 'failed'] });
    }
  }

  /** After the run: every stream follows the table and every channel agrees on the final state. */
  async verify(): Promise<void> {
    for (const task of this.tasks) {
      for (const { via, stream } of task.streams) {
        // An error event (C-26) ends a stream without a state; only task events are steps.
        const states = (await stream.done).events.filter((e) => !e.isError).map(eventState);
        const bad = illegalStep(states);
        if (bad !== null) throw new StateViolation(task, `${via} carried an illegal step ${bad}`);
        const last = states.at(-1);
        if (isFinalState(last)) task.finals.push({ via, state: last });
      }
      this.verifyEnd(task);
    }
  }

  private verifyEnd(task: ObservedTask): void {
    const ends = [...new Set(task.finals.map((f) => f.state))];
    if (ends.length > 1) {
      throw new StateViolation(task, `final states disagree: ${JSON.stringify(task.finals)}`);
    }
    const end = ends[0];
    if (end === undefined) throw new StateViolation(task, 'no final state was read after the cleanup cancel');
    for (const { via, states } of task.impliedBy) {
      if (!states.includes(end as string)) {
        throw new StateViolation(
          task,
          `${via} implies ${states.join(' or ')}, but the task ended ${String(end)}`,
        );
      }
    }
    if (this.directives && task.script !== undefined && !allowedEnds(task.script).includes(end as string)) {
      throw new StateViolation(
        task,
        `its script ${JSON.stringify(directiveOf(task.script))} cannot end ${String(end)}`,
      );
    }
  }
}
