// What the runner hands to the suites' workers through vitest's provide/inject (ProvidedRun): what the
// run was asked (RunSettings, frozen) joined with what the runner decided (RunDecisions: the probe's
// card, the budget, the links, the plan), one snapshot per change (harness/runner/run-state.ts).
import type { Pace } from './io/traffic/pace.ts';
import { networkSecrets, type NetworkSettings } from './io/target/network.ts';
import { urlSecrets } from '../core/redaction.ts';
import type { AuthKind, Profile } from '../core/types.ts';
import type { FieldValues } from './option-table.ts';
import { fieldValues, tableValues } from './options.ts';

/**
 * What the user asked of the run's traffic, frozen once the options are resolved: the option table's
 * `field` rows (--concurrency, --max-turns, --max-wait) and the profile.
 */
export type AskedField = Readonly<FieldValues & { profile: Profile }>;

/**
 * What the runner decides of the run's traffic as it goes (harness/runner/run-state.ts owns it):
 * from the probe, the budget, the workers, the plan and the window fill.
 */
export interface DecidedField {
  /** The pace every request keeps (--rate, else the card's); null: none (rate-limited answers are still waited out). */
  pace: Pace | null;
  /** Agent turns in flight at once: the card's limits.concurrentTasks (spec 8); null or absent: none. */
  taskCap?: number | null;
  /** Epoch ms before the suites' budget ends (a share kept for the checks that run last): no paced wait may end later. */
  deadlineAt?: number;
  /**
   * The run's budget (--budget-ms): `endsAt` (epoch ms) is when it ends, after which the governor
   * admits no request (RunBudgetError) and a check still running ends not-exercised once the target
   * answered what it sent; `toFit` is the --budget-ms the run's plan says would fit what it selected
   * (null: no plan, or the budget fits).
   */
  budget?: { ms: number; endsAt: number; toFit: number | null };
  /** Suite files run in several workers: the runner's governor and file lock (harness/io/links/worker-link.ts). */
  governorUrl?: string;
  /** Suite files run at once (vitest workers). */
  suiteWorkers?: number;
  /**
   * The answer time of the probe's task-creating request (harness/runner/probe.ts): the turn
   * allowance until the suites' own turns are counted, so the first checks' windows already grow
   * by what this agent takes per turn.
   */
  probedTurnMs?: number;
  /**
   * Before the files that run last: the requests the runner sent ahead of the rate-limit burst to
   * fill the agent's window (harness/runner/window-fill.ts), those answered with a card, and when it
   * stopped (epoch ms). Absent: none was sent.
   */
  windowFill?: { requests: number; served: number; endedAt: number };
  /**
   * The plan's passes when the budget cannot hold every generated case the profile asks for
   * (harness/runner/plan.ts): `coverage`, each property runs one case (phase 1); `breadth`, each runs
   * the cases the plan gave it (phase 2, keyed by test name `<id> <title>`); `budget.toFit` is the
   * --budget-ms that would hold them. Absent: every property runs what the profile gives it.
   */
  breadth?: { phase: 'coverage' | 'breadth'; cases: Record<string, number> };
}

/** How the run treats the agent's traffic (harness/io/traffic/governor.ts), as a check reads it: asked and decided. */
export interface FieldSettings extends AskedField, DecidedField {}

export interface ProvidedRun {
  baseUrl: string;
  agentId: string;
  auth: { apiKey?: string; bearer?: string };
  /**
   * A credential of the same agent in the other header form (spec 5), used only by the checks that
   * both forms are accepted; absent when the run was given one form.
   */
  alternateAuth?: { apiKey?: string; bearer?: string };
  /** The extended card (spec 2.14) fetched by the probe; null when none could be fetched. */
  card: Record<string, unknown> | null;
  /** Budget of one request. */
  timeoutMs: number;
  /** Budget of one check; verifies() turns an overrun into an `error` result. */
  checkTimeoutMs: number;
  /** fast-check settings: the one place a property's seed and run count come from. */
  seed: number;
  runs: number;
  webhookListen: { host: string; port: number };
  webhookPublicUrl?: string;
  /**
   * The runner's webhook link (harness/io/links/webhook-link.ts): the run's one receiver, listening for the
   * whole run; absent when the suites run without the runner (each worker then has its own).
   */
  webhookLink?: string;
  /** The target is the bundled reference server on an ephemeral port. */
  bundled: boolean;
  field: FieldSettings;
  /** TLS, proxy and the extra headers of every request to the target. */
  network?: NetworkSettings;
}

/** What the runner decides of the run (harness/runner/run-state.ts): the card, its links, the traffic. */
export interface RunDecisions {
  card: ProvidedRun['card'];
  webhookLink?: string;
  field: DecidedField;
}

/**
 * What the run was asked, built once from the resolved options and frozen
 * (harness/runner/run-settings.ts): everything the workers are handed but the runner's decisions.
 */
export type RunSettings = Readonly<
  Omit<ProvidedRun, 'card' | 'webhookLink' | 'field'> & { field: AskedField }
>;

/** No pace, no cap on turns or waits: the full profile at full speed (tests, listings). */
export const FULL_SPEED: FieldSettings = Object.freeze({
  profile: 'full',
  pace: null,
  // The option table's defaults: no cap on turns or waits.
  ...fieldValues(tableValues({})),
});

declare module 'vitest' {
  export interface ProvidedContext {
    a2aRun: ProvidedRun;
  }
}

export function authKindOf(auth: ProvidedRun['auth']): AuthKind {
  if (auth.apiKey !== undefined) return 'api-key';
  if (auth.bearer !== undefined) return 'bearer';
  return 'none';
}

/**
 * Every secret the run knows, for redaction of evidence and reports: the credentials, the network's
 * (secret headers, a proxy's credentials) and any the target URL carries (its user information).
 */
export function secretsOf(
  run: Pick<ProvidedRun, 'auth' | 'alternateAuth' | 'network'> & { baseUrl?: string },
): string[] {
  const alt = run.alternateAuth ?? {};
  const all = [run.auth.apiKey, run.auth.bearer, alt.apiKey, alt.bearer, ...networkSecrets(run.network)];
  if (run.baseUrl !== undefined) all.push(...urlSecrets(run.baseUrl));
  return [...new Set(all.filter((s): s is string => typeof s === 'string' && s !== ''))];
}

/**
 * Where a client of the run sends and how: the target, its credentials (redacted from the evidence),
 * the request budget and the network settings. The checks' clients and the runner's own (the window
 * fill) start from it.
 */
export function targetOptions(
  run: Pick<ProvidedRun, 'baseUrl' | 'agentId' | 'auth' | 'alternateAuth' | 'timeoutMs' | 'network'>,
): {
  baseUrl: string;
  agentId: string;
  auth: ProvidedRun['auth'];
  timeoutMs: number;
  network?: NetworkSettings;
  secrets: string[];
} {
  return {
    baseUrl: run.baseUrl,
    agentId: run.agentId,
    auth: run.auth,
    timeoutMs: run.timeoutMs,
    ...(run.network === undefined ? {} : { network: run.network }),
    secrets: secretsOf(run),
  };
}

/**
 * The option that gives a run the room its budget lacked: `--budget-ms N` with the figure the run's
 * plan says would fit (the plan line prints the same), or a larger budget when the plan had none.
 */
export function largerBudgetOption(field: Pick<FieldSettings, 'budget'>): string {
  const b = field.budget;
  if (b === undefined) return 'a larger --budget-ms';
  return b.toFit !== null && b.toFit > b.ms ? `--budget-ms ${b.toFit}` : `a --budget-ms above ${b.ms}`;
}

/** How traffic.cut lists the checks the run's budget ended before they started, or before they finished. */
export function budgetCut(
  field: Pick<FieldSettings, 'budget'>,
  before: 'ran' | 'finished',
): { what: string; option: string } {
  return { what: `checks the run's budget ended before they ${before}`, option: largerBudgetOption(field) };
}
