// The task state machine of spec section 3 as data plus the one function allowed to change a
// task's status: illegal transitions and exits from a final state are refused (spec 3 rule 1),
// timestamps follow C-35/C-39 and progress stays monotone (C-24).
import { isFinalState, type TaskState } from '../../schemas/error-codes.ts';
import type { TaskProgress, TaskStatus } from '../types.ts';

/** Spec 3 table: the only legal (from -> to) pairs. */
export const LEGAL_TRANSITIONS: Readonly<Record<TaskState, readonly TaskState[]>> = Object.freeze({
  submitted: ['working', 'canceled'],
  working: ['completed', 'failed', 'canceled'],
  completed: [],
  failed: [],
  canceled: [],
});

/** A status change the engine asked for that the state machine refuses. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly from: TaskState,
    readonly to: TaskState,
  ) {
    super(`illegal task transition ${from} -> ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** The mutable part of a task that the state machine owns. */
export interface StatefulTask {
  status: TaskStatus;
  history: TaskStatus[];
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
}

/** includeHistory replays (C-10) are bounded so a chatty agent cannot grow a task without limit. */
export const MAX_HISTORY = 1000;

export function canTransition(from: TaskState, to: TaskState): boolean {
  return LEGAL_TRANSITIONS[from].includes(to);
}

/**
 * C-35: updatedAt changes at every state change and never goes backwards, even when two changes
 * fall in the same millisecond or the wall clock steps back: it then moves 1 ms past the previous value.
 */
function nextTimestamp(previous: string, now: Date): string {
  return isoOf(Math.max(now.getTime(), Date.parse(previous) + 1));
}

/**
 * `new Date(ms).toISOString()`, cheaper: the text up to the seconds is formatted once per second and
 * the milliseconds appended (toISOString costs about a microsecond, several times per task).
 */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

export function isoOf(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    const iso = new Date(second * 1000).toISOString();
    // Years outside 0000-9999 are formatted with a sign and six digits: leave those to toISOString.
    if (iso.length !== 24) return new Date(ms).toISOString();
    cachedPrefix = iso.slice(0, 20);
    cachedSecond = second;
  }
  const millis = ms - second * 1000;
  return `${cachedPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

function record(task: StatefulTask, status: TaskStatus, now: Date): void {
  task.status = status;
  task.updatedAt = nextTimestamp(task.updatedAt, now);
  if (task.history.length < MAX_HISTORY) task.history.push(status);
}

/** Applies a state change; throws IllegalTransitionError when spec section 3 forbids it. */
export function transition(task: StatefulTask, status: TaskStatus, now: Date = new Date()): void {
  const from = task.status.state;
  if (!canTransition(from, status.state)) throw new IllegalTransitionError(from, status.state);
  record(task, status, now);
  if (status.state === 'working') task.startedAt = task.updatedAt;
  if (isFinalState(status.state)) task.finishedAt = task.updatedAt;
}

/**
 * Replaces the progress of a working task. Returns false (and changes nothing) when the task is
 * not working or the update would move `current` backwards or out of [0, total] (C-24).
 */
export function updateProgress(task: StatefulTask, progress: TaskProgress, now: Date = new Date()): boolean {
  if (task.status.state !== 'working') return false;
  const { current, total } = progress;
  if (!(total > 0) || !(current >= 0) || current > total) return false;
  if (current < (task.status.progress?.current ?? 0)) return false;
  record(task, { state: 'working', progress: { ...progress } }, now);
  return true;
}
