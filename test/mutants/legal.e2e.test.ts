// A fast subset of the legal variants (mutants/legal/): each one, run over the requirements its form
// touches, gets no `fail` and no `warn` where the proxy with no change passes. The whole set runs
// with `npm run mutants -- --legal` (every requirement per variant; minutes, not part of npm test).
import { beforeAll, describe, expect, it } from 'vitest';
import { compareWithControl, loadLegalVariants, runLegal, type LegalRun } from '../../mutants/legal-run.ts';
import type { LegalVariant } from '../../mutants/types.ts';

/** Each variant of the subset and the requirements its form touches (the false failures it once found). */
const SUBSET: Record<string, string[]> = {
  'timestamps-whole-seconds': [
    '2.7/updated-at-present',
    '4.3/get-timestamps-ordered',
    '2.7/timestamps-iso8601',
  ],
  'webhook-delivery-id-sequence': ['6.2/delivery-header', '6.2/delivery-id-per-event'],
  'agent-ignores-directives': ['3/completed-webhook', '6/task-level-replaces-agent-level'],
  'sse-comments-everywhere': ['4.2/stream-closed-after-final', '4.2/stream-single-final-event'],
  'ids-task-opaque': ['4.3/get-current-state', '4.4/cancel-completed-task-code'],
  'base-url-under-path': ['9/version-path-v1', '4/unknown-route-404'],
  'answers-gzip': ['2.2/response-id-equals-request-id', '4.2/stream-single-final-event'],
};

const all = await loadLegalVariants();
const subset: LegalVariant[] = Object.entries(SUBSET).map(([name, only]) => {
  const v = all.find((x) => x.name === name);
  if (v === undefined) throw new Error(`no legal variant ${name}`);
  return { ...v, only };
});
let run: LegalRun;

beforeAll(async () => {
  run = await runLegal(subset, { concurrency: Number(process.env.MUTANTS_CONCURRENCY ?? 3) });
}, 300_000);

describe('legal variants', () => {
  it('at least 30 variants, kebab names saying what they vary, each citing what allows it', () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
    for (const v of all) expect(v.allowedBy.length, v.name).toBeGreaterThan(10);
  });

  it('compareWithControl counts only fail and warn where the control passes', () => {
    const control = { a: 'pass', b: 'pass', c: 'fail', d: 'pass', e: 'pass' };
    const variant = { a: 'warn', b: 'info', c: 'fail', d: 'not-exercised', e: 'pass' };
    expect(compareWithControl(control, variant)).toEqual({
      falseFindings: ['a: warn'],
      unexercised: ['d: not-exercised'],
    });
  });

  it('the control passes every requirement of the subset', () => {
    expect(run.control.problem).toBeUndefined();
    for (const id of Object.values(SUBSET).flat())
      expect(`${id}: ${run.control.verdicts[id]}`).toBe(`${id}: pass`);
  });

  it.each(Object.keys(SUBSET))('%s: no fail and no warn where the control passes', (name) => {
    const r = run.results.find((x) => x.name === name);
    expect(r?.problem).toBeUndefined();
    expect(r?.falseFindings).toEqual([]);
  });
});
