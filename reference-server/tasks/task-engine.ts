// The task engine of one agent (spec section 3): creates tasks, admits them through the FIFO
// queue (C-21), runs the agent, applies cancel (C-06..C-08, C-34) and the system timeout (C-05),
// and announces every status change to subscribers (SSE, C-10/C-31) and to the webhook service (6.1).
// Tasks are kept in the store's task table; with a shared store, a task running in another
// replica is followed and canceled through the store's fan-out.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isFinalState, type TaskState, type WebhookEvent } from '../../schemas/error-codes.ts';
import { AgentFailure, isAbortError, planJob, type AgentJob } from '../agent/reference-agent.ts';
import { contentText } from '../agent/directives.ts';
import type { AgentConfig, Message, TaskProgress, TaskStatus } from '../types.ts';
import type { Fanout, StoredTask, TaskSlots, TaskTable } from '../store/types.ts';
import type { TaskRecord } from './task-store.ts';
import { isoOf, transition, updateProgress } from './transitions.ts';

export interface TaskUpdate {
  task: StoredTask;
  status: TaskStatus;
  final: boolean;
}

export type TransitionListener = (task: StoredTask, event: WebhookEvent) => void;

export interface EngineHooks {
  /** Every state change, creation included (spec 6.1 events); must not throw. */
  onTransition: TransitionListener;
  clock?: () => Date;
}

/** Where the engine keeps its tasks; `fanout` when other replicas share them. */
export interface EngineStore {
  table: TaskTable;
  /** The agent's concurrentTasks slots; `start` runs an admitted task. */
  slots: (start: (taskId: string) => void) => TaskSlots;
  fanout?: Fanout | undefined;
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
  | { ok: true; task: StoredTask }
  /** `raced`: the task reached this final state while the cancel was being applied (C-08). */
  | { ok: false; task: StoredTask; currentState: TaskState; raced: boolean };

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
/**
 * How long a cancel asked of another replica waits for its final status: the owner's grace plus a
 * margin for two store round trips. Past it the owner is taken as gone and the task is canceled in
 * the store directly (a task must not stay live because the replica running it stopped).
 */
export const REMOTE_CANCEL_WAIT_MS = CANCEL_GRACE_MS + 1000;
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
  readonly table: TaskTable;
  private readonly fanout: Fanout | undefined;
  private readonly queue: TaskSlots;
  private readonly runs = new Map<string, Run>();
  /** Unfinished tasks this process runs (queued or working), with their jobs. */
  private readonly owned = new Map<string, TaskRecord>();
  private readonly listeners = new Map<string, Set<(update: TaskUpdate) => void>>();
  /** After close() no task changes state any more (late agent results are dropped). */
  private closed = false;

  private readonly onTransition: TransitionListener;
  private readonly clock: () => Date;

  constructor(
    private readonly agent: AgentConfig,
    hooks: EngineHooks,
    store: EngineStore,
  ) {
    this.onTransition = hooks.onTransition;
    this.clock = hooks.clock ?? (() => new Date());
    this.table = store.table;
    this.fanout = store.fanout;
    // With a shared store every replica hears each admission; the one running the task starts it.
    this.queue = store.slots((taskId) => {
      if (this.fanout === undefined || this.owned.has(taskId)) this.start(taskId);
    });
    this.fanout?.onCancelRequest((agentId, taskId, reason) => {
      const task = agentId === this.agent.id ? this.owned.get(taskId) : undefined;
      if (task !== undefined) void this.cancel(task, reason);
    });
  }

  get workingCount(): number {
    return this.runs.size;
  }

  /** The task as this process runs it, else as the store has it. */
  async find(taskId: string): Promise<StoredTask | undefined> {
    return this.owned.get(taskId) ?? (await this.table.get(taskId));
  }

  async create(input: CreateTaskInput): Promise<TaskRecord> {
    const contextId = input.contextId ?? randomUUID();
    const history = await this.table.appendTurn(contextId, input.sessionId, contentText(input.message.parts));
    const job = planJob({
      message: input.message,
      turn: history.length + 1,
      history,
      turnMs: this.agent.turnMs,
    });
    const now = isoOf(this.clock().getTime());
    const status: TaskStatus = { state: 'submitted' };
    const task: TaskRecord = {
      id: input.taskId ?? randomUUID(),
      agentId: this.agent.id,
      contextId,
      status,
      history: [status],
      createdAt: now,
      updatedAt: now,
      streamable: job.streamable,
      version: 0,
      job,
    };
    if (input.sessionId !== undefined) task.sessionId = input.sessionId;
    if (job.estimatedDurationMs !== undefined) task.estimatedDurationMs = job.estimatedDurationMs;
    this.owned.set(task.id, task);
    await this.table.save(task, false);
    this.onTransition(task, 'task.submitted');
    this.queue.enqueue(task.id);
    return task;
  }

  /**
   * Calls `listener` for every later status of the task; returns the unsubscribe function. `seen`
   * is the task as the caller last read it: a task of another replica is followed through the
   * store's fan-out from that version on.
   */
  subscribe(taskId: string, listener: (update: TaskUpdate) => void, seen?: StoredTask): () => void {
    if (this.fanout !== undefined && !this.owned.has(taskId)) {
      return this.followRemote(taskId, listener, seen?.version ?? -1);
    }
    let set = this.listeners.get(taskId);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(taskId, set);
    }
    set.add(listener);
    return () => this.listeners.get(taskId)?.delete(listener);
  }

  waitForFinal(task: TaskRecord): Promise<StoredTask> {
    if (isFinalState(task.status.state)) return Promise.resolve(task);
    return new Promise((resolve) => {
      const unsubscribe = this.subscribe(task.id, (update) => {
        if (!update.final) return;
        unsubscribe();
        resolve(update.task);
      });
    });
  }

  async cancel(task: StoredTask, reason: string): Promise<CancelOutcome> {
    const refused = (raced: boolean, current: StoredTask = task): CancelOutcome => ({
      ok: false,
      task: current,
      currentState: current.status.state,
      raced,
    });
    if (isFinalState(task.status.state)) return refused(false);
    const owned = this.owned.get(task.id);
    if (owned === undefined) {
      if (this.fanout === undefined) return refused(false);
      const final = await this.cancelRemote(task, reason);
      if (final.status.state !== 'canceled') return refused(true, final);
      return { ok: true, task: final };
    }
    const run = this.runs.get(owned.id);
    if (run !== undefined) {
      // Cooperative cancel: the agent may still finish first; that is the race of C-08.
      run.lazy.abort();
      await Promise.race([run.settled, sleep(CANCEL_GRACE_MS, undefined, { ref: false })]);
      if (isFinalState(owned.status.state)) return refused(owned.status.state !== 'canceled', owned);
    } else {
      this.queue.remove(owned.id);
    }
    this.finish(owned, { state: 'canceled', reason });
    return { ok: true, task: owned };
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

  /** Follows a task of another replica: fan-out updates newer than `seenVersion`, none missed. */
  private followRemote(
    taskId: string,
    listener: (update: TaskUpdate) => void,
    seenVersion: number,
  ): () => void {
    let seen = seenVersion;
    let stopped = false;
    const deliver = (task: StoredTask): void => {
      if (stopped || task.version <= seen) return;
      seen = task.version;
      const final = isFinalState(task.status.state);
      if (final) stop();
      listener({ task, status: task.status, final });
    };
    const unsubscribe = (this.fanout as Fanout).subscribe(this.agent.id, taskId, deliver);
    const stop = (): void => {
      stopped = true;
      unsubscribe();
    };
    // A status stored between the caller's read and the subscription is read back here.
    void Promise.resolve(this.table.get(taskId)).then(
      (task) => task !== undefined && deliver(task),
      () => undefined,
    );
    return stop;
  }

  /** Asks the owner to cancel; cancels in the store when the owner does not answer (it is gone). */
  private async cancelRemote(task: StoredTask, reason: string): Promise<StoredTask> {
    let unsubscribe = (): void => {};
    const final = new Promise<StoredTask>((resolve) => {
      unsubscribe = this.followRemote(
        task.id,
        (update) => update.final && resolve(update.task),
        task.version,
      );
    });
    (this.fanout as Fanout).requestCancel(this.agent.id, task.id, reason);
    const answered = await Promise.race([final, sleep(REMOTE_CANCEL_WAIT_MS, undefined, { ref: false })]);
    unsubscribe();
    if (answered !== undefined) return answered;
    const canceled: StoredTask = structuredClone(task);
    transition(canceled, { state: 'canceled', reason }, this.clock());
    canceled.version += 1;
    const current = (await this.table.finishIfLive(canceled)) ?? canceled;
    if (current === canceled) {
      this.fanout?.publish(canceled);
      this.onTransition(canceled, 'task.canceled');
    }
    return current;
  }

  private start(taskId: string): void {
    const task = this.owned.get(taskId);
    if (this.closed || task === undefined || task.status.state !== 'submitted') {
      this.queue.release(taskId);
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
    if (!updateProgress(task, progress, this.clock())) return;
    task.version += 1;
    this.notify(task, this.persist(task, false));
  }

  /**
   * Moves a task to a final state once; later attempts (a late agent result, a lost race) are no-ops.
   * `agentRunning` false: the agent itself ended, so there is nothing to abort (an abort allocates a
   * DOMException with its stack, a measurable share of every message/send).
   */
  private finish(task: TaskRecord, status: TaskStatus, agentRunning = true): boolean {
    if (this.closed || isFinalState(task.status.state)) return false;
    const written = this.change(task, status);
    const run = this.runs.get(task.id);
    if (run !== undefined) {
      this.runs.delete(task.id);
      clearTimeout(run.timer);
      if (agentRunning) run.lazy.abort();
      this.queue.release(task.id);
    }
    // The job closes over the request (file bytes included); a finished task no longer needs it.
    task.job = ENDED_JOB;
    if (written === undefined) {
      this.owned.delete(task.id);
      void this.table.save(task, true);
    } else {
      // Answered from here until the store has the final status, so no read goes back in time.
      void written.then(() => this.owned.delete(task.id));
    }
    return true;
  }

  private change(task: TaskRecord, status: TaskStatus): Promise<void> | undefined {
    transition(task, status, this.clock());
    task.version += 1;
    const written = this.persist(task, isFinalState(status.state));
    this.onTransition(task, EVENT_OF_STATE[status.state]);
    this.notify(task, written);
    return written;
  }

  /**
   * With a shared store every change is written, then published to the other replicas; the
   * in-memory table holds the live record, so only creation and the finish are told to it.
   */
  private persist(task: TaskRecord, finished: boolean): Promise<void> | undefined {
    if (this.fanout === undefined) return undefined;
    const fanout = this.fanout;
    return Promise.resolve(this.table.save(task, finished)).then(
      () => fanout.publish(task),
      (error: unknown) => {
        process.stderr.write(`reference-server: task ${task.id} not stored: ${String(error)}\n`);
      },
    );
  }

  /** Local subscribers hear a status once it is stored, so any replica then answers with it. */
  private notify(task: StoredTask, written?: Promise<void>): void {
    const status = task.status;
    const final = isFinalState(status.state);
    const set = this.listeners.get(task.id);
    if (set === undefined) return;
    if (final) this.listeners.delete(task.id);
    const dispatch = (): void => {
      for (const listener of [...set]) listener({ task, status, final });
    };
    if (written === undefined) dispatch();
    else void written.then(dispatch);
  }
}
