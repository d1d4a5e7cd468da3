// A run's live progress, as the runner reports it to a listener (the CLI's console reporter and event
// stream, or runConformance()'s `progress` hook): the run's start (what it grades), its plan (each
// check with the time the plan gives it), each finished check, then each finished suite file.
import type { Level } from '../requirements/types.ts';
import type { CheckResult, CheckStatus, RunResult } from './types.ts';

/** A selected check as the plan weighs it: its share of the run's expected wall time. */
export interface PlannedCheckWeight {
  requirementId: string;
  title: string;
  /** Estimated ms of this check (its cases included) at this agent. */
  weightMs: number;
}

/** Live progress: the run's start and plan, each finished check, then each finished suite file. */
export type ProgressEvent =
  | {
      kind: 'start';
      tool: RunResult['tool'];
      target: { baseUrl: string; agentId: string };
      requirements: Array<{ id: string; level: Level }>;
    }
  | {
      kind: 'plan';
      checks: PlannedCheckWeight[];
      /** The suites' wall time the plan expects, at most the budget (harness/runner/plan.ts). */
      estimateMs: number;
      budgetMs: number;
      fits: 'everything' | 'coverage' | 'part';
      requirements: number;
      requests: number;
      turns: number;
    }
  /** `requests`: what the check sent (its traffic), when known. */
  | { kind: 'check'; file: string; check: CheckResult; requests?: number }
  | { kind: 'file'; file: string; statuses: CheckStatus[]; suiteErrors: number };

export type ProgressListener = (event: ProgressEvent) => void;
