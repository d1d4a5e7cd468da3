// Deliberately broken servers ("mutants"): each variant wraps an unmodified reference server and
// breaks exactly one requirement of the ledger, so the harness can be shown to catch it.

export type Area =
  | 'envelope'
  | 'errors'
  | 'tasks'
  | 'streaming'
  | 'resubscribe'
  | 'cancel'
  | 'states'
  | 'multi-turn'
  | 'files'
  | 'webhooks'
  | 'card'
  | 'auth'
  | 'cors'
  | 'limits';

export interface MutantTarget {
  baseUrl: string;
  agentId: string;
  apiKey: string;
  /** extra CLI args for the run, e.g. --webhook-* */
  extraArgs?: string[];
  close(): Promise<void>;
}

/**
 * The target with no mutation a variant is held against, when it is not the plain proxy (a replicated
 * agent for the cross-replica checks): variants naming the same control share one run of it.
 */
export interface ControlTarget {
  name: string;
  start(): Promise<MutantTarget>;
}

export interface Variant {
  /** unique kebab name starting with the requirement id with '/' and '.' replaced by '-', e.g. '7-method-not-found-code--answers-32600' */
  name: string;
  /** the ledger requirement id this variant breaks */
  breaks: string;
  /** 'fail' for a MUST requirement, 'warn' for a SHOULD one (derive/verify from the ledger in the test) */
  expect: 'fail' | 'warn';
  area: Area;
  description: string;
  /** --only patterns for the harness run; default [breaks] */
  only?: string[];
  /** The faithful target it is held against; default the proxy with no hook (mutants/proxy.ts). */
  control?: ControlTarget;
  start(): Promise<MutantTarget>;
}

/**
 * How a set of variants runs: `concurrency` harness runs at a time, `onResult` as each ends, the
 * reports kept under `keep`.
 */
export interface SetRunOptions<R> {
  concurrency?: number;
  onResult?: (r: R) => void;
  keep?: string;
}

/**
 * A legal variant: an unmodified reference server behind the same proxy, changed only in a way the
 * spec allows. The harness must give it no `fail` and no `warn` on a requirement the plain proxy
 * passes (mutants/legal-run.ts).
 */
export interface LegalVariant {
  /** kebab name saying what it varies, e.g. `sse-crlf-line-endings` */
  name: string;
  /** The freedoms it proves tolerated: ids of the ledger of freedoms (requirements/freedoms.ts), at least one. */
  varies: readonly string[];
  description: string;
  /** the spec line or ruling that leaves this choice to the agent */
  allowedBy: string;
  /** --only patterns for the harness run; default every requirement */
  only?: string[];
  /** The unchanged target it is compared with; default the proxy with no change. */
  control?: ControlTarget;
  start(): Promise<MutantTarget>;
}
