// Every broken variant of mutants/variants/ is caught: the harness CLI, run against it as a child
// process, gives the broken requirement `fail` (MUST) or `warn` (SHOULD) in report.json; and the
// proxy with no mutation passes every requirement the variants target (the wrapper is faithful).
import { beforeAll, describe, expect, it } from 'vitest';
import { getRequirement } from '../../requirements/index.ts';
import { loadVariants, runMutants, type MutationRun } from '../../mutants/runner.ts';
import { computeScore, scoreMarkdown } from '../../mutants/score.ts';

const variants = await loadVariants();
// Two cores: three harness runs at a time keep both busy while one waits on its target. A harness
// run costs 5 to 7 CPU-seconds, so the whole set needs about 3.5 minutes of two cores; the hook allows
// 10 minutes because the cores may be shared with other work.
const CONCURRENCY = Number(process.env.MUTANTS_CONCURRENCY ?? 3);
let run: MutationRun;

beforeAll(async () => {
  run = await runMutants(variants, { concurrency: CONCURRENCY });
  process.stdout.write(`\n${scoreMarkdown(computeScore(run))}\n`);
}, 600_000);

describe('mutants', () => {
  it('at least 40 variants, each a distinct name (the extended set loads and is consistent too)', async () => {
    expect(variants.length).toBeGreaterThanOrEqual(40);
    const all = await loadVariants(undefined, { extended: true });
    expect(new Set(all.map((v) => v.name)).size).toBe(all.length);
  });

  it('each variant names the ledger requirement it breaks and the verdict its level gives', () => {
    for (const v of variants) {
      const { level } = getRequirement(v.breaks);
      expect(`${v.name}: ${level} -> ${v.expect}`).toBe(
        `${v.name}: ${level} -> ${level === 'MUST' ? 'fail' : 'warn'}`,
      );
    }
  });

  it('the proxy with no mutation passes every requirement the variants run', () => {
    expect(run.control.problem).toBeUndefined();
    expect(run.control.unfaithful).toEqual([]);
    for (const v of variants)
      expect(`${v.breaks}: ${run.control.verdicts[v.breaks]}`).toBe(`${v.breaks}: pass`);
  });

  it.each(variants.map((v) => [v.name, v.breaks, v.expect] as const))(
    '%s: %s gets %s',
    (name, breaks, verdict) => {
      const r = run.results.find((x) => x.name === name);
      expect(r?.problem).toBeUndefined();
      expect(`${breaks}: ${r?.verdict}`).toBe(`${breaks}: ${verdict}`);
    },
  );
});
