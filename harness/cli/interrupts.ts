// SIGINT (Ctrl+C) and SIGTERM (a CI cancel) while a command runs, one mechanism for run, receiver,
// client and fleet run: the first ends the run early through an AbortSignal (core/interrupt.ts), which
// admits no new request, gives the checks under way a few seconds, keeps every verdict decided and
// writes every report; a second signal exits at once.
import { interruption, type InterruptSignal, type Interruption } from '../../core/interrupt.ts';
import type { CliIo } from './shared.ts';

export interface InterruptHooks {
  /** Told of the first signal, after the AbortSignal is aborted (the fleet passes it on to its runs). */
  onFirst?: (i: Interruption) => void;
  /** Called before a second signal exits the process (the fleet kills its runs). */
  onSecond?: () => void;
}

/** Runs `work` with an AbortSignal the first SIGINT or SIGTERM aborts; a second one exits at once. */
export async function interruptible<T>(
  io: CliIo,
  work: (signal: AbortSignal) => Promise<T>,
  hooks: InterruptHooks = {},
): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: InterruptSignal): void => {
    const first = controller.signal.reason as Interruption | undefined;
    if (first !== undefined) {
      hooks.onSecond?.();
      io.err(`${signal} again: exiting at once; the reports of this run are not written\n`);
      process.exit(first.exitCode);
    }
    const i = interruption(signal);
    controller.abort(i);
    io.err(
      `\n${signal}: stopping: no new request, the checks under way get a few seconds, every report is written (exit ${i.exitCode}); ${signal === 'SIGINT' ? 'Ctrl+C' : 'the signal'} again exits at once\n`,
    );
    hooks.onFirst?.(i);
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}
