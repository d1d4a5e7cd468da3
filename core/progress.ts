// A run's live progress, as the runner reports it to a listener (the CLI's console reporter, or
// runConformance()'s `progress` hook): each finished check, then each finished suite file.
import type { CheckResult, CheckStatus } from './types.ts';

/** Live progress for the console reporter: each finished check, then each finished suite file. */
export type ProgressEvent =
  | { kind: 'check'; file: string; check: CheckResult }
  | { kind: 'file'; file: string; statuses: CheckStatus[]; suiteErrors: number };

export type ProgressListener = (event: ProgressEvent) => void;
