// The task engine of one agent (spec section 3): creates tasks, admits them through the FIFO
// queue (C-21), runs the agent, applies cancel (C-06..C-08, C-34) and the system timeout (C-05),
// and announces every status change to subscribers (SSE, C-10/C-31) and to the webhook service (6.1).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isFinalState, type TaskState, type WebhookEvent } from '../../schemas/error-codes.ts';
import { AgentFailure, isAbortError, planJob, type AgentJob } from '../agent/reference-agent.ts';
import { contentText } from '../agent/directives.ts';
import type { AgentConfig, Message, TaskProgress, TaskStatus } from '../types.ts';
import { SlotQueue } from './queue.ts';
import { TaskStore, type TaskRecord } from './task-store.ts';
import { isoOf, transition, updateProgress } from './transitions.ts';

export interface TaskUpdate {
  task: TaskRecord;
  status: TaskStatus;
  final: boolean;
}

export type TransitionListener = (task: TaskRecord, event: WebhookEvent) => void;

export interface EngineHooks {
  /** Every state change, creation included (spec 6.1 events); must not throw. */
  onTransition: TransitionListener;
  /** A finished task left the store (C-44). */
  onEvict?: (task: TaskRecord) => void;
  clock?: () => Date;
}

export interface CreateTaskInput {
  message: Message;
  /** An existing conversation of this agent (checked by the caller, C-15); absent opens a new one. */
  contextId?: string;
  sessionId?: string;
  /** A fresh client-supplied task id (C-16). */
  taskId?: string;
}

export type CancelOutcome =
  | { ok: true; task: TaskRecord }
  /** `raced`: the task reached this final state while the cancel was being applied (C-08). */
  | { ok: false; task: TaskRecord; currentState: TaskState; raced: boolean };

interface Run {
  /** Created on first use: most tasks end by themselves and never need one (a measurable cost per task). */
  lazy: LazyAbort;
  settled: Promise<void>;
  timer: NodeJS.Timeout;
}

/** An AbortController made only when a job reads its signal or the engine aborts it. */
class LazyAbort {
  private controller: AbortController | undefined;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }

  abort(): void {
    (this.controller ??= new AbortController()).abort();
  }
}

/** How long a cancel waits for a running agent to acknowledge before forcing `canceled`. */
export const CANCEL_GRACE_MS = 250;
export const SYSTEM_TIMEOUT_REASON = 'system timeout';

const EVENT_OF_STATE: Readonly<Record<TaskState, WebhookEvent>> = Object.freeze({
  submitted: 'task.submitted',
  working: 'task.working',
  completed: 'task.completed',
  failed: 'task.failed',
  canceled: 'task.canceled',
});

/** What a finished task keeps in place of its job: the flags only matter while a task runs. */
const ENDED_JOB: AgentJob = Object.freeze({
  initialProgress: Object.freeze({ current: 0, total: 1, message: 'ended' }),
  streamable: true,
  streamError: false,
  run: () => Promise.reject(new Error('the task has ended')),
});

export class TaskEngine {
  readonly store: TaskStore;
  private readonly queue: SlotQueue;
  private readonly runs = new Map<string, Run>();
  private readonly listeners = new Map<string, Set<(update: TaskUpdate) => void>>();
  /** After close() no task changes state any more (late agent results are dropped). */
  private closed = false;

  private readonly onTransition: TransitionListener;
  private readonly clock: () => Date;

  constructor(
    private readonly agent: AgentConfig,
    hooks: EngineHooks,
  ) {
    this.onTransition = hooks.onTransition;
    this.clock = hooks.clock ?? (() => new Date());
    this.store = new TaskStore(agent.maxTasks, hooks.onEvict);
    this.queue = new SlotQueue(agent.limits.concurrentTasks, (taskId) => this.start(taskId));
  }

  get workingCount(): number {
    return this.runs.size;
  }

  create(input: CreateTaskInput): TaskRecord {
    const conversation =
      (input.contextId === undefined ? undefined : this.store.conversation(input.contextId)) ??
      this.store.openConversation(input.contextId ?? randomUUID(), input.sessionId);
    const history = [...conversation.userTexts];
    conversation.userTexts.push(contentText(input.message.parts));
    const job = planJob({ message: input.message, turn: history.length + 1, history });
    const now = isoOf(this.clock().getTime());
    const status: TaskStatus = { state: 'submitted' };
    const task: TaskRecord = {
      id: input.taskId ?? randomUUID(),
      agentId: this.agent.id,
      contextId: conversation.id,
      status,
      history: [status],
      createdAt: now,
      updatedAt: now,
      job,
    };
    if (input.sessionId !== undefined) task.sessionId = input.sessionId;
    if (job.estimatedDurationMs !== undefined) task.estimatedDurationMs = job.estimatedDurationMs;
    this.store.add(task);
    this.onTransition(task, 'task.submitted');
    this.queue.enqueue(task.id);
    return task;
  }

  /** Calls `listener` for every later status of the task; returns the unsubscribe function. */
  subscribe(taskId: string, listener: (update: TaskUpdate) => void): () => void {
    let set = this.listeners.get(taskId);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(taskId, set);
    }
    set.add(listener);
    return () => this.listeners.get(taskId)?.delete(listener);
  }

  waitForFinal(task: TaskRecord): Promise<TaskRecord> {
    if (isFinalState(task.status.state)) return Promise.resolve(task);
    return new Promise((resolve) => {
      const unsubscribe = this.subscribe(task.id, (update) => {
        if (!update.final) return;
        unsubscribe();
        resolve(update.task);
      });
    });
  }

  async cancel(task: TaskRecord, reason: string): Promise<CancelOutcome> {
    const refused = (raced: boolean): CancelOutcome => ({
      ok: false,
      task,
      currentState: task.status.state,
      raced,
    });
    if (isFinalState(task.status.state)) return refused(false);
    const run = this.runs.get(task.id);
    if (run !== undefined) {
      // Cooperative cancel: the agent may still finish first; that is the race of C-08.
      run.lazy.abort();
      await Promise.race([run.settled, sleep(CANCEL_GRACE_MS, undefined, { ref: false })]);
      if (isFinalState(task.status.state)) return refused(task.status.state !== 'canceled');
    } else {
      this.queue.remove(task.id);
    }
    this.finish(task, { state: 'canceled', reason });
    return { ok: true, task };
  }

  close(): void {
    this.closed = true;
    for (const run of this.runs.values()) {
      clearTimeout(run.timer);
      run.lazy.abort();
    }
    this.runs.clear();
    this.queue.clear();
    this.listeners.clear();
  }

  private start(taskId: string): void {
    const task = this.store.get(taskId);
    if (this.closed || task === undefined || task.status.state !== 'submitted') {
      this.queue.release();
      return;
    }
    this.change(task, { state: 'working', progress: { ...task.job.initialProgress } });
    const lazy = new LazyAbort();
    const timeout = (): void => void this.finish(task, { state: 'canceled', reason: SYSTEM_TIMEOUT_REASON });
    const timer = setTimeout(timeout, this.agent.systemTimeoutMs).unref();
    const running = task.job.run({
      get signal() {
        return lazy.signal;
      },
      get aborted() {
        return lazy.aborted;
      },
      progress: (progress) => this.progress(task, progress),
    });
    const settled = running.then(
      (message) => void this.finish(task, { state: 'completed', message }, false),
      (error: unknown) => this.onRunError(task, lazy, error),
    );
    this.runs.set(task.id, { lazy, settled, timer });
  }

  private onRunError(task: TaskRecord, lazy: LazyAbort, error: unknown): void {
    // An agent that stopped because it was asked to leaves the final state to the cancel path.
    if (isAbortError(error) && lazy.aborted) return;
    const statusError =
      error instanceof AgentFailure
        ? { code: error.code, message: error.message }
        : { code: 'internal_error', message: 'the agent stopped with an unexpected error' };
    this.finish(task, { state: 'failed', error: statusError }, false);
  }

  private progress(task: TaskRecord, progress: TaskProgress): void {
    if (updateProgress(task, progress, this.clock())) this.notify(task);
  }

  /**
   * Moves a task to a final state once; later attempts (a late agent result, a lost race) are no-ops.
   * `agentRunning` false: the agent itself ended, so there is nothing to abort (an abort allocates a
   * DOMException with its stack, a measurable share of every message/send).
   */
  private finish(task: TaskRecord, status: TaskStatus, agentRunning = true): boolean {
    if (this.closed || isFinalState(task.status.state)) return false;
    this.change(task, status);
    const run = this.runs.get(task.id);
    if (run !== undefined) {
      this.runs.delete(task.id);
      clearTimeout(run.timer);
      if (agentRunning) run.lazy.abort();
      this.queue.release();
    }
    // The job closes over the request (file bytes included); a finished task no longer needs it.
    task.job = ENDED_JOB;
    this.store.markFinished(task);
    return true;
  }

  private change(task: TaskRecord, status: TaskStatus): void {
    transition(task, status, this.clock());
    this.onTransition(task, EVENT_OF_STATE[status.state]);
    this.notify(task);
  }

  private notify(task: TaskRecord): void {
    const final = isFinalState(task.status.state);
    const set = this.listeners.get(task.id);
    if (set === undefined) return;
    if (final) this.listeners.delete(task.id);
    for (const listener of [...set]) listener({ task, status: task.status, final });
  }
}
