// The shape of one ledger entry. The ledger (requirements/*.ts) is data only: every normative
// statement of spec/a2a-jsonrpc-service.md, plus the JSON-RPC 2.0 rules it inherits.

/** MUST fails a run, SHOULD warns, MAY and INFO are reported only. */
export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'INFO';

/** A capability of the agent card; checks of a requirement that needs an absent one are not-applicable. */
export type Capability = 'streaming' | 'webhooks' | 'fileUpload' | 'multiTurn' | 'metrics';

/**
 * The party a requirement binds: the `service` (the agent server, certified by `run`), a webhook
 * `receiver` (spec 6.4, 6.5; certified by `receiver`) or a `client` (spec 2.1, 2.3, 2.5, 4, 7;
 * certified by `client`).
 */
export type Role = 'service' | 'client' | 'receiver';

export const ROLES: readonly Role[] = Object.freeze(['service', 'receiver', 'client']);

export interface SpecSource {
  /** 1-based line of spec/a2a-jsonrpc-service.md that states the rule. */
  line: number;
  /** A verbatim excerpt of that line (a test checks it appears there). */
  quote: string;
}

export interface ExternalSource {
  /** Where an inherited rule comes from, e.g. 'JSON-RPC 2.0, section 5.1'. */
  origin: string;
  quote: string;
}

export interface Requirement {
  /** Stable id `section/behaviour`, e.g. `4.4/cancel-final-task-rejected`. Never renamed. */
  id: string;
  /** Spec section number, e.g. '4.4'; inherited JSON-RPC rules use the section that inherits them. */
  section: string;
  /** The party the requirement binds; each role is certified by its own command. */
  role: Role;
  level: Level;
  /** One sentence: the behaviour a conforming target shows. */
  behaviour: string;
  source: SpecSource | ExternalSource;
  /** Clarification ids (CLARIFICATIONS.md, `C-NN`) that rule on this requirement. */
  rulings?: readonly string[];
  /** Capabilities the requirement depends on. */
  capabilities?: readonly Capability[];
}
