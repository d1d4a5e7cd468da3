// The deterministic built-in agent: turns one user message (plus its conversation) into a job
// that waits, reports progress, fails or replies exactly as its a2a:directive says (docs/directives.md).
// Cancellation is cooperative: the job stops when its AbortSignal fires (spec 3, C-08).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message, TaskProgress } from '../types.ts';
import { parseDirectives, type Directive } from './directives.ts';
import { agentMessage, replyText } from './reply.ts';

/** status.error.message of a task failed by the streamError directive. */
export const STREAM_ERROR_MESSAGE = 'the agent failed after the stream started (streamError directive)';

/**
 * directives.md `internalError`: the details of the -32603 answered before any task exists, or
 * undefined when the message asks for no such fault (invalid directives fail the task instead).
 */
export function directedInternalError(message: Message): string | undefined {
  const parsed = parseDirectives(message.parts);
  if (!parsed.ok || !parsed.directive.internalError) return undefined;
  return 'the agent failed unexpectedly before creating a task (internalError directive)';
}

export interface JobContext {
  /** Fires when the task is canceled or times out. */
  readonly signal: AbortSignal;
  /** The signal's state, read without creating it (a job that never waits needs no signal). */
  readonly aborted: boolean;
  progress(progress: TaskProgress): void;
}

/** What the engine runs once the task is dequeued. */
export interface AgentJob {
  estimatedDurationMs?: number;
  /** The progress the task shows as soon as it enters `working` (C-24: progress present while working). */
  initialProgress: TaskProgress;
  /** directives.md `streamable`: false makes tasks/resubscribe of the live task fail (-32004). */
  streamable: boolean;
  /** directives.md `streamError`: message/stream fails after its first event. */
  streamError: boolean;
  run(context: JobContext): Promise<Message>;
}

/** An agent-side processing error: the task fails with status.error {code, message}. */
export class AgentFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentFailure';
  }
}

export interface JobInput {
  message: Message;
  /** 1-based position of this message in its conversation. */
  turn: number;
  /** Content of the earlier user messages of the conversation, oldest first. */
  history: readonly string[];
  /** The agent's turn (AgentConfig.turnMs): every job works this long before its directive's work. */
  turnMs?: number;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const abort = (): void => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Waits the agent's turn, then delayMs in progressSteps equal slices, reporting "step i of N" after
 * each.
 */
async function work(directive: Directive, context: JobContext, turnMs: number): Promise<void> {
  if (turnMs > 0) await sleep(turnMs, undefined, { signal: context.signal });
  const slices = Math.max(directive.progressSteps, 1);
  const base = Math.floor(directive.delayMs / slices);
  for (let step = 1; step <= slices; step += 1) {
    const slice = step === slices ? directive.delayMs - base * (slices - 1) : base;
    // No timer for an empty slice: sleep(0) still waits for the next timers phase (about 1 ms),
    // which capped the default echo task at a few thousand per second per process.
    if (slice > 0) await sleep(slice, undefined, { signal: context.signal });
    else if (context.aborted) context.signal.throwIfAborted();
    if (directive.progressSteps > 0) {
      const total = directive.progressSteps;
      context.progress({ current: step, total, message: `step ${step} of ${total}` });
    }
  }
  if (directive.runUntilCanceled) await waitForAbort(context.signal);
}

export function planJob(input: JobInput): AgentJob {
  const parsed = parseDirectives(input.message.parts);
  const initialProgress = { current: 0, total: 1, message: 'step 0 of 1' };
  if (!parsed.ok) {
    const failure = new AgentFailure('invalid_directive', parsed.message);
    return { initialProgress, streamable: true, streamError: false, run: () => Promise.reject(failure) };
  }
  const { directive, contentTexts } = parsed;
  if (directive.progressSteps > 0) {
    initialProgress.total = directive.progressSteps;
    initialProgress.message = `step 0 of ${directive.progressSteps}`;
  }
  const job: AgentJob = {
    initialProgress,
    streamable: directive.streamable,
    streamError: directive.streamError,
    async run(context) {
      try {
        await work(directive, context, input.turnMs ?? 0);
      } catch (error) {
        // finishOnCancel: the agent reaches its outcome the moment it is asked to stop (C-08 race).
        if (!(isAbortError(error) && directive.finishOnCancel)) throw error;
      }
      if (directive.fail !== undefined) throw new AgentFailure('agent_error', directive.fail);
      if (directive.streamError) throw new AgentFailure('internal_error', STREAM_ERROR_MESSAGE);
      const content = contentTexts.join('\n');
      return agentMessage(replyText({ ...input, directive, content, parts: input.message.parts }));
    },
  };
  if (!directive.runUntilCanceled) job.estimatedDurationMs = directive.delayMs + (input.turnMs ?? 0);
  return job;
}
