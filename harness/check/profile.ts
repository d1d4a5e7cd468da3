// What each --profile may spend on the agent (docs/field-conditions.md): `full` runs every generated
// case; `standard` and `smoke` cut the properties that cost agent turns (each an LLM call on a real
// agent) hard, and those over malformed input (refused before any LLM call) only to the pace.
import { requestsPerMinute } from '../io/traffic/pace.ts';
import type { FieldSettings } from '../provided.ts';
import type { PropertyAllowance } from './property.ts';

/**
 * Turns one property may spend, per profile (`full`: no cap). Standard: 8, about 12 s of a
 * 1.5 s-per-turn agent for each of the turn-heavy properties (the section 3 model, the valid messages
 * of 4.1), which the mutants show is enough for what they check; each single-case check still runs.
 */
const PROPERTY_TURNS = { smoke: 3, standard: 8 } as const;
// Requests one property may spend at the agent's pace: a share of a minute of it, so that no
// property holds the run for minutes (at 600/min: 300 of the 400 cases of a malformed-input property).
const PACE_SHARE = { smoke: 0.1, standard: 0.5 } as const;
const SMOKE_REQUESTS = 50;

export type PropertyLimits = Pick<PropertyAllowance, 'turns' | 'requests'>;

export function propertyLimits(field: Pick<FieldSettings, 'profile' | 'pace'>): PropertyLimits | undefined {
  if (field.profile === 'full') return undefined;
  const rpm = requestsPerMinute(field.pace);
  const paced = rpm === null ? Infinity : Math.max(10, Math.floor(rpm * PACE_SHARE[field.profile]));
  const requests = field.profile === 'smoke' ? Math.min(SMOKE_REQUESTS, paced) : paced;
  return { turns: PROPERTY_TURNS[field.profile], requests };
}
