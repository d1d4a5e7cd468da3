// What a check costs the agent and what it needs, declared next to the check: `suiteFile({...})` at
// the top of a suite file (what its checks cost unless they say otherwise, whether the file runs
// first or last, whether its checks need the agent to themselves), each shared sample's own name and
// cost where it is made (declareSample, sharedSample) and `verifies(..., { cost, property, samples })`
// on a check that differs. The runner collects the
// declarations when vitest collects the suites (each test carries its own in `task.meta.a2aPlan`),
// orders the files by them and plans the run from them (harness/runner/plan.ts). No path or text of a
// file decides anything. A check filed in another section's suite folder than its requirement's says
// why there, in its own declaration (`crossSection`); the coverage gate holds every such check to it.

/** A wait a check plans beyond its requests' own round trips, and what it derives from. */
export type PlannedWait =
  /** A time the spec states (ms): e.g. the 5 s receiver timeout of 6.5. */
  | { spec: number; why: string }
  /** This many of this agent's turns (its measured turn latency). */
  | { turns: number; why: string }
  /** The agent's rate-limit window (C-04: a minute) running out once. */
  | { rateWindow: true; why: string }
  /** The agent's system timeout (spec 3) running out once, within --max-wait. */
  | { systemTimeout: true; why: string };

/** What one check sends at the least: one generated case per property, shared samples apart. */
export interface CheckCost {
  /** Requests, turns included (the rate-limit burst: its limit plus a margin, `burst: true`). */
  requests: number;
  /** Agent turns among them: requests that make the agent work a task (message/send, message/stream). */
  turns: number;
  /** The requests are the agent's own limit plus a margin (C-04's burst), not a fixed number. */
  burst?: boolean;
  waits?: readonly PlannedWait[];
}

/** What each further generated case of a property costs (the breadth the plan spends what is left on). */
export interface PropertyCost {
  requests: number;
  turns: number;
  /** The property asks for --runs divided by this many cases (a model run worth several); default 1. */
  runsDivisor?: number;
  /**
   * An enumerated property (`c.each`: one case per method, per field, per malformed value): its cases
   * in all. The plan gives it up to this many, whatever --runs and the profile say; phase 1 runs its
   * first case only.
   */
  cases?: number;
}

/** A check's declaration: what differs from its file's. */
export interface CheckDeclaration {
  /** Replaces the file's `cost` for this check. */
  cost?: CheckCost;
  /** The check runs a property: each generated case after the first costs this. */
  property?: PropertyCost;
  /** The file's shared samples (declared by declareSample / sharedSample above the check) it reads. */
  samples?: readonly string[];
  /**
   * The check can never exercise its requirement: it records why a part of it is not observable from
   * outside (and always ends not-exercised saying so). The plan never takes it to reach its requirement.
   */
  unobservable?: true;
  /**
   * Why a check of another section's requirement is in this file's suite folder, not its own section's
   * (suites/<section>/): e.g. it grades on the sample this file already makes (one task, one delivery,
   * one malformed body serves several sections' requirements, which saves agent turns), or it must
   * run at a point of the run only this file gives it. Said by `list --json` and `explain`.
   */
  crossSection?: string;
}

export interface SuiteFileDeclaration {
  /** What a check of this file costs unless it declares its own (verifies(..., { cost })). */
  cost: CheckCost;
  /**
   * The file runs before (`first`) or after (`last`) every other one, and why: e.g. it needs an agent
   * on which no agent-level webhook configuration was ever set, or it trips the rate limit.
   */
  runs?: { when: 'first' | 'last'; why: string };
  /**
   * `alone`: every check of the file needs the agent to itself (no other file's request in between,
   * e.g. the rate-limit burst). A single check that fills the agent's task slots says so itself
   * (verifies(..., { overflowsTasks: true })). Default `shared`.
   */
  agent?: 'shared' | 'alone';
  /**
   * How the file's time is spent, for where it starts when files share workers: `request-chain`, one
   * long chain of requests with almost no agent turn that lets checks needing the agent idle in
   * between its cases (starts first); `long`, many agent turns in a row, a spec-bound wait or bodies
   * of megabytes (starts right after the files that need the agent idle, so that it does not end the
   * run's last files alone). Default: neither.
   */
  span?: 'request-chain' | 'long';
  /**
   * Every check of the file runs beside the others (as verifies(..., { concurrent: true })): each
   * sends its own requests, makes its own tasks and reads only their answers and the file's shared
   * samples, and none needs the agent idle. Behind a slow link the file's checks then overlap their
   * round trips instead of adding them up. A check may still say `concurrent: false`.
   */
  concurrent?: boolean;
  /**
   * The file's shared samples by name: made once per file by the first check that reads one. Not
   * written in suiteFile(): each sample declares its own name and cost (verifies.ts declareSample,
   * suites/support/samples.ts sharedSample) and the file's declaration gathers them.
   */
  samples?: Readonly<Record<string, CheckCost>>;
}

/** What a test carries in `task.meta.a2aPlan`: the check's resolved declaration and its file's. */
export interface CheckPlanMeta {
  file: SuiteFileDeclaration;
  cost: CheckCost;
  property?: PropertyCost;
  samples: string[];
  /** The check needs the agent idle: it fills its task slots, or its file runs alone. */
  needsIdleAgent: boolean;
  /** CheckDeclaration.unobservable. */
  unobservable?: true;
  /** CheckDeclaration.crossSection. */
  crossSection?: string;
}

function count(what: string, n: unknown): void {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new Error(`${what} must be a whole number >= 0 (got ${String(n)})`);
}

function checkCost(what: string, cost: CheckCost | undefined): void {
  if (cost === undefined || typeof cost !== 'object') throw new Error(`${what}: a cost is required`);
  count(`${what}.requests`, cost.requests);
  count(`${what}.turns`, cost.turns);
  if (cost.turns > cost.requests) throw new Error(`${what}: more turns than requests`);
  for (const wait of cost.waits ?? []) {
    if (typeof wait.why !== 'string' || wait.why.trim() === '')
      throw new Error(`${what}: a planned wait says what it waits for (why)`);
    if ('spec' in wait) count(`${what}: wait '${wait.why}' (spec ms)`, wait.spec);
    else if ('turns' in wait) count(`${what}: wait '${wait.why}' (turns)`, wait.turns);
  }
}

/** Throws a message naming what is wrong with a file's declaration. */
export function validateFileDeclaration(decl: SuiteFileDeclaration): void {
  if (decl === undefined || decl === null || typeof decl !== 'object')
    throw new Error('suiteFile(): a declaration object is required');
  checkCost('suiteFile().cost', decl.cost);
  if (decl.runs !== undefined) {
    if (decl.runs.when !== 'first' && decl.runs.when !== 'last')
      throw new Error(`suiteFile().runs.when must be 'first' or 'last'`);
    if (typeof decl.runs.why !== 'string' || decl.runs.why.trim() === '')
      throw new Error('suiteFile().runs says why the file must run then');
  }
  if (decl.concurrent !== undefined && typeof decl.concurrent !== 'boolean')
    throw new Error('suiteFile().concurrent is true or false');
  for (const [name, cost] of Object.entries(decl.samples ?? {})) validateSampleCost(name, cost);
}

/** Throws a message naming what is wrong with a shared sample's cost. */
export function validateSampleCost(name: string, cost: CheckCost): void {
  checkCost(`sample '${name}' cost`, cost);
}

function knownSamples(file: SuiteFileDeclaration): string {
  const known = Object.keys(file.samples ?? {});
  return known.length === 0 ? '; it declares none' : `; it declares ${known.map((k) => `'${k}'`).join(', ')}`;
}

/** The check's declaration resolved against its file's; throws on a sample its file does not declare. */
export function resolveCheckPlan(
  file: SuiteFileDeclaration,
  check: CheckDeclaration,
  overflowsTasks: boolean,
): CheckPlanMeta {
  if (check.cost !== undefined) checkCost('verifies() cost', check.cost);
  if (check.property !== undefined) {
    count('verifies() property.requests', check.property.requests);
    count('verifies() property.turns', check.property.turns);
    if (check.property.runsDivisor !== undefined && !(check.property.runsDivisor >= 1))
      throw new Error('verifies() property.runsDivisor must be >= 1');
    if (check.property.cases !== undefined) count('verifies() property.cases', check.property.cases);
  }
  if (
    check.crossSection !== undefined &&
    (typeof check.crossSection !== 'string' || check.crossSection.trim() === '')
  )
    throw new Error('verifies() crossSection says why the check is filed in this section (a sentence)');
  const samples = [...(check.samples ?? [])];
  for (const name of samples) {
    if (file.samples?.[name] === undefined)
      throw new Error(
        `verifies(): sample '${name}' is not one of its file's samples (declared above the check by sharedSample() or declareSample())${knownSamples(file)}`,
      );
  }
  const plan: CheckPlanMeta = {
    file,
    cost: check.cost ?? file.cost,
    samples,
    needsIdleAgent: overflowsTasks || file.agent === 'alone',
  };
  if (check.property !== undefined) plan.property = check.property;
  if (check.unobservable === true) plan.unobservable = true;
  if (check.crossSection !== undefined) plan.crossSection = check.crossSection;
  return plan;
}
