// The ids or sections nearest to one the ledger does not hold, for the "did you mean" of `explain`
// and `--only` (harness/cli/info-commands.ts, harness/runner/select-requirements.ts): an id that holds
// what was typed first, then the smallest edit distance (fastest-levenshtein).
import { distance } from 'fastest-levenshtein';
import { REQUIREMENTS, SECTIONS } from './index.ts';

/** At most `max` requirement ids nearest to `word`, nearest first. */
export function nearestIds(word: string, max = 3): string[] {
  return nearest(
    word,
    REQUIREMENTS.map((r) => r.id),
    max,
  );
}

/**
 * What a glob of `--only` that selects nothing may have meant: ids for a glob with a `/` (its `*`s
 * dropped), sections for one without.
 */
export function nearestForGlob(glob: string, max = 3): string[] {
  const word = glob.replace(/\*/g, '');
  if (glob.includes('/')) return nearestIds(word.replace(/\/$/, '/'), max);
  return nearest(word.replace(/\.$/, ''), Object.keys(SECTIONS), max);
}

/**
 * How far `word` is from a candidate: the edit distance to the whole of it, to its start (what was
 * typed may be cut short, as a glob's `*` cuts it) or to its part after the section (`cancel-race`).
 */
function remoteness(word: string, candidate: string): number {
  const tail = candidate.slice(candidate.indexOf('/') + 1);
  return Math.min(
    distance(word, candidate),
    distance(word, candidate.slice(0, word.length)) + 0.5,
    distance(word, tail.slice(0, word.length)) + 0.5,
  );
}

function nearest(word: string, candidates: readonly string[], max: number): string[] {
  const scored = candidates.map((c) => ({
    c,
    inside: word !== '' && c.includes(word),
    d: remoteness(word, c),
  }));
  scored.sort((a, b) => Number(b.inside) - Number(a.inside) || a.d - b.d || a.c.localeCompare(b.c));
  return [...new Set(scored.map((s) => s.c))].slice(0, max);
}

/** ` (did you mean a, b or c?)`, or nothing when there is no candidate. */
export function didYouMean(candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  const last = candidates.at(-1)!;
  const list = candidates.length === 1 ? last : `${candidates.slice(0, -1).join(', ')} or ${last}`;
  return `; did you mean ${list}?`;
}
