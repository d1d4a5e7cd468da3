// Reads the capabilities an agent card claims (spec 2.14) so checks of an absent capability are
// not-applicable (C-41), and the limits it states (spec 8; systemTimeoutMs, the C-05 extension). An
// unknown card runs every check: absence must be claimed, not guessed.
import type { Capability, Requirement } from '../requirements/types.ts';

type Card = Record<string, unknown> | null;

function field(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>)[key] : undefined;
}

/** False only when the card says the capability is absent. */
export function cardClaims(card: Card, capability: Capability): boolean {
  const caps = field(card, 'capabilities');
  if (caps === undefined) return true;
  switch (capability) {
    case 'streaming':
    case 'webhooks':
    case 'multiTurn':
      return field(caps, capability) !== false;
    case 'fileUpload':
      return field(field(caps, 'fileUpload'), 'supported') !== false;
    case 'metrics':
      // Metrics are a parameter of agent/authenticatedExtendedCard (spec 4.8), not a claimed flag.
      return true;
  }
}

/** The limits a card may state under `limits`. */
export type CardLimit =
  'requestsPerMinute' | 'concurrentTasks' | 'maxMessageLength' | 'systemTimeoutMs' | 'keepAliveMs';

/** The card's `limits[name]` when it is a positive finite number; undefined otherwise (unstated or malformed). */
export function cardLimit(card: Card | undefined, name: CardLimit): number | undefined {
  const n = field(field(card, 'limits'), name);
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The capabilities a requirement needs that the card says are absent. */
export function absentCapabilities(requirement: Pick<Requirement, 'capabilities'>, card: Card): Capability[] {
  return (requirement.capabilities ?? []).filter((c) => !cardClaims(card, c));
}
