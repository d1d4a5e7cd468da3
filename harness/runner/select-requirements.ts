// The requirements a run grades: those of its role selected by --only and --level. A glob of --only
// that selects nothing, or a selection left empty, is a configuration error naming the nearest ids.
// Served to `run`, `list`, `explain` and the receiver and client roles alike.
import { REQUIREMENTS, selectRequirements } from '../../requirements/index.ts';
import { didYouMean, nearestForGlob } from '../../requirements/nearest.ts';
import type { Requirement, Role } from '../../requirements/types.ts';
import { ConfigError, type ResolvedRunOptions } from '../options.ts';

const LEVELS_RUN = {
  must: ['MUST'],
  should: ['MUST', 'SHOULD'],
  all: ['MUST', 'SHOULD', 'MAY', 'INFO'],
} as const;

/**
 * Every glob of --only selects some requirement of the ledger (of any role): a typo is an error that
 * names the nearest ids or sections, never a glob silently ignored beside the others.
 */
export function assertKnownGlobs(only: readonly string[]): void {
  for (const glob of only.flatMap((g) => g.split(',')).map((g) => g.trim())) {
    if (glob === '' || selectRequirements(glob).length > 0) continue;
    throw new ConfigError(`--only ${glob} matches no requirement${didYouMean(nearestForGlob(glob))}`);
  }
}

/** The requirements of one role (`run` certifies the service) selected by --only and --level. */
export function selectForRun(
  opts: Pick<ResolvedRunOptions, 'only' | 'level'>,
  role: Role = 'service',
): Requirement[] {
  assertKnownGlobs(opts.only);
  const base = opts.only.length > 0 ? selectRequirements(opts.only) : REQUIREMENTS;
  const levels: readonly string[] = LEVELS_RUN[opts.level];
  const selected = base.filter((r) => r.role === role && levels.includes(r.level));
  if (selected.length === 0) {
    const only = opts.only.length > 0 ? ` --only ${opts.only.join(',')}` : '';
    const of = role === 'service' ? '' : ` of the ${role} role`;
    throw new ConfigError(`no requirement${of} matches${only} at --level ${opts.level}`);
  }
  return selected;
}
