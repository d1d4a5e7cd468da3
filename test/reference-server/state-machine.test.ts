// The task state machine (spec 3; C-05, C-08, C-21, C-24, C-35): the transition table, refusals of
// illegal moves and final-state exits, and fast-check properties over random command sequences
// against the pure transition function and the real task engine.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TASK_STATES, type TaskState, type WebhookEvent } from '../../schemas/error-codes.ts';
import { resolveAgentConfigs } from '../../reference-server/agents/config.ts';
import { TaskEngine, type CancelOutcome } from '../../reference-server/tasks/task-engine.ts';
import { SlotQueue } from '../../reference-server/tasks/queue.ts';
import { TaskStore, type TaskRecord } from '../../reference-server/tasks/task-store.ts';
import type { StoredTask } from '../../reference-server/store/types.ts';
import {
  IllegalTransitionError,
  isoOf,
  LEGAL_TRANSITIONS,
  transition,
  updateProgress,
  type StatefulTask,
} from '../../reference-server/tasks/transitions.ts';
import { directive, userMessage } from './support.ts';
import type { Message } from '../../reference-server/types.ts';

/** One setting for every property of this file; FC_NUM_RUNS overrides it. */
const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 40);
const FINAL: ReadonlySet<TaskState> = new Set(['completed', 'failed', 'canceled']);

function freshTask(): StatefulTask {
  const status = { state: 'submitted' as const };
  return {
    status,
    history: [status],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

describe('3 transition table', () => {
  it('is exactly the spec table', () => {
    expect(LEGAL_TRANSITIONS).toEqual({
      submitted: ['working', 'canceled'],
      working: ['completed', 'failed', 'canceled'],
      completed: [],
      failed: [],
      canceled: [],
    });
  });

  it('refuses every other pair, including any exit from a final state', () => {
    for (const from of TASK_STATES) {
      for (const to of TASK_STATES) {
        const task = freshTask();
        task.status = { state: from };
        const legal = LEGAL_TRANSITIONS[from].includes(to);
        if (legal) expect(() => transition(task, { state: to })).not.toThrow();
        else expect(() => transition(task, { state: to })).toThrow(IllegalTransitionError);
      }
    }
  });

  it('accepts progress only while working, within bounds and never decreasing (C-24)', () => {
    const task = freshTask();
    expect(updateProgress(task, { current: 0, total: 1, message: 'x' })).toBe(false);
    transition(task, { state: 'working', progress: { current: 1, total: 4, message: 'a' } });
    expect(updateProgress(task, { current: 0, total: 4, message: 'back' })).toBe(false);
    expect(updateProgress(task, { current: 5, total: 4, message: 'over' })).toBe(false);
    expect(updateProgress(task, { current: 0, total: 0, message: 'zero' })).toBe(false);
    expect(updateProgress(task, { current: 3, total: 4, message: 'ok' })).toBe(true);
    expect(task.status.progress?.current).toBe(3);
  });
});

describe('C-35 timestamps', () => {
  it('isoOf formats any millisecond exactly as toISOString, in any order', () => {
    const instant = fc.integer({ min: -8.64e15, max: 8.64e15 });
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) expect(isoOf(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: NUM_RUNS * 25 },
    );
    for (const ms of [0, 999, 1000, -1, -1000, 253402300799999, 253402300800000, -62167219200001]) {
      expect(isoOf(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('moves updatedAt 1 ms past the previous value when changes share a millisecond or the clock steps back', () => {
    const task = freshTask();
    const at = new Date('2025-01-01T00:00:00.000Z');
    transition(task, { state: 'working', progress: { current: 0, total: 1, message: 'a' } }, at);
    expect(task.updatedAt).toBe('2025-01-01T00:00:00.001Z');
    transition(task, { state: 'completed' }, new Date('2024-12-31T23:59:59.999Z'));
    expect(task.updatedAt).toBe('2025-01-01T00:00:00.002Z');
  });
});

describe('3 property: random transitions', () => {
  it('keeps a legal path, terminal final states and ordered timestamps', () => {
    const arbStep = fc.record({
      to: fc.constantFrom(...TASK_STATES),
      advanceMs: fc.integer({ min: -5000, max: 5000 }),
    });
    fc.assert(
      fc.property(fc.array(arbStep, { maxLength: 12 }), (steps) => {
        const task = freshTask();
        let clock = Date.parse(task.createdAt);
        for (const step of steps) {
          clock += step.advanceMs;
          const before = task.status;
          try {
            transition(task, { state: step.to }, new Date(clock));
          } catch (error) {
            expect(error).toBeInstanceOf(IllegalTransitionError);
            expect(task.status).toBe(before);
          }
        }
        const states = task.history.map((status) => status.state);
        states.slice(1).forEach((state, index) => expect(LEGAL_TRANSITIONS[states[index]!]).toContain(state));
        expect(states.filter((state) => FINAL.has(state)).length).toBeLessThanOrEqual(1);
        expect(task.createdAt <= task.updatedAt).toBe(true);
        // C-35: every recorded change moved updatedAt strictly forward, whatever the clock did.
        expect(Date.parse(task.updatedAt) - Date.parse(task.createdAt)).toBeGreaterThanOrEqual(
          task.history.length - 1,
        );
        expect(task.finishedAt !== undefined).toBe(FINAL.has(task.status.state));
        expect(task.startedAt !== undefined).toBe(states.includes('working'));
      }),
      { numRuns: NUM_RUNS * 5 },
    );
  });
});

type Command =
  | { kind: 'create'; delayMs: number; fail: boolean; runUntilCanceled: boolean; finishOnCancel: boolean }
  | { kind: 'cancel'; index: number }
  | { kind: 'wait'; ms: number };

const arbCommand: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    delayMs: fc.integer({ min: 0, max: 15 }),
    fail: fc.boolean(),
    runUntilCanceled: fc.boolean(),
    finishOnCancel: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), index: fc.nat({ max: 20 }) }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 10 }) }),
);

function messageFor(command: Extract<Command, { kind: 'create' }>): Message {
  const fields: Record<string, unknown> = {
    delayMs: command.delayMs,
    finishOnCancel: command.finishOnCancel,
  };
  if (command.runUntilCanceled) fields.runUntilCanceled = true;
  else if (command.fail) fields.fail = 'boom';
  return userMessage('p', directive(fields)) as unknown as Message;
}

const STATE_OF_EVENT = (event: WebhookEvent): TaskState => event.slice('task.'.length) as TaskState;

/** Watches the engine's transition events: per-task states, start order, and the peak of working tasks. */
class TransitionLog {
  readonly events = new Map<string, TaskState[]>();
  readonly startOrder: string[] = [];
  maxWorking = 0;
  private working = 0;

  record(task: StoredTask, event: WebhookEvent): void {
    const state = STATE_OF_EVENT(event);
    const previous = this.events.get(task.id) ?? [];
    this.events.set(task.id, [...previous, state]);
    if (state === 'working') {
      this.startOrder.push(task.id);
      this.working += 1;
      this.maxWorking = Math.max(this.maxWorking, this.working);
    } else if (FINAL.has(state) && previous.includes('working')) this.working -= 1;
  }
}

type Outcomes = Array<Promise<[TaskRecord, CancelOutcome]>>;

async function play(
  engine: TaskEngine,
  commands: Command[],
  tasks: TaskRecord[],
  cancels: Outcomes,
): Promise<void> {
  for (const command of commands) {
    if (command.kind === 'create') tasks.push(await engine.create({ message: messageFor(command) }));
    else if (command.kind === 'wait') await new Promise((resolve) => setTimeout(resolve, command.ms));
    else if (tasks.length > 0) {
      const task = tasks[command.index % tasks.length]!;
      cancels.push(engine.cancel(task, 'prop').then((outcome) => [task, outcome]));
    }
  }
  // End every task so each history is complete; cancels of already-final tasks are refused.
  for (const task of tasks) cancels.push(engine.cancel(task, 'cleanup').then((outcome) => [task, outcome]));
}

function checkTask(task: TaskRecord, states: TaskState[]): void {
  expect(states[0]).toBe('submitted');
  states.slice(1).forEach((state, index) => expect(LEGAL_TRANSITIONS[states[index]!]).toContain(state));
  expect(states.filter((state) => FINAL.has(state))).toHaveLength(1);
  expect(states.at(-1)).toBe(task.status.state);
  // The task's own history (progress updates collapsed) tells the same story as the events.
  const history = task.history.map((status) => status.state);
  expect(history.filter((state, index) => state !== 'working' || history[index - 1] !== 'working')).toEqual(
    states,
  );
}

async function runEngine(concurrentTasks: number, commands: Command[]): Promise<void> {
  const [agent] = resolveAgentConfigs([{ id: 'p', apiKeys: ['k'], limits: { concurrentTasks } }]);
  const log = new TransitionLog();
  const engine = new TaskEngine(
    agent!,
    { onTransition: (task, event) => log.record(task, event) },
    {
      table: new TaskStore(agent!.maxTasks),
      slots: (start) => new SlotQueue(concurrentTasks, start),
    },
  );
  const tasks: TaskRecord[] = [];
  const cancels: Outcomes = [];
  await play(engine, commands, tasks, cancels);
  const outcomes = await Promise.all(cancels);
  await Promise.all(tasks.map((task) => engine.waitForFinal(task)));
  engine.close();

  expect(log.maxWorking).toBeLessThanOrEqual(concurrentTasks);
  expect(log.startOrder).toEqual(tasks.map((task) => task.id).filter((id) => log.startOrder.includes(id)));
  for (const task of tasks) checkTask(task, log.events.get(task.id) ?? []);
  for (const [task, outcome] of outcomes) {
    if (outcome.ok) expect(task.status.state).toBe('canceled');
    else expect(outcome.currentState).toBe(task.status.state);
  }
}

describe('3 property: random command sequences against the task engine (C-08, C-21)', () => {
  it('keeps legal histories, one final state, FIFO starts, the concurrency cap and consistent cancels', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(arbCommand, { maxLength: 14 }), runEngine),
      { numRuns: NUM_RUNS },
    );
  }, 60_000);
});
