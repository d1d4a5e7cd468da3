// The mutation score: caught variants over all variants, per area and in total, as JSON and Markdown.
import type { MutationRun } from './runner.ts';

export interface AreaScore {
  area: string;
  caught: number;
  total: number;
}

export interface Score {
  caught: number;
  total: number;
  /** percentage rounded down to one decimal */
  percent: number;
  areas: AreaScore[];
  control: { faithful: boolean; requirements: number; unfaithful: string[]; problem: string | null };
  durationMs: number;
  variants: Array<{
    name: string;
    breaks: string;
    area: string;
    expect: string;
    verdict: string | null;
    caught: boolean;
  }>;
}

export function computeScore(run: MutationRun): Score {
  const areas = new Map<string, AreaScore>();
  for (const r of run.results) {
    const a = areas.get(r.area) ?? { area: r.area, caught: 0, total: 0 };
    a.total += 1;
    if (r.caught) a.caught += 1;
    areas.set(r.area, a);
  }
  const caught = run.results.filter((r) => r.caught).length;
  const total = run.results.length;
  return {
    caught,
    total,
    percent: total === 0 ? 0 : Math.floor((caught / total) * 1000) / 10,
    areas: [...areas.values()].sort((x, y) => x.area.localeCompare(y.area)),
    control: {
      faithful: run.control.unfaithful.length === 0 && run.control.problem === undefined,
      requirements: Object.keys(run.control.verdicts).length,
      unfaithful: run.control.unfaithful,
      problem: run.control.problem ?? null,
    },
    durationMs: run.durationMs,
    variants: run.results.map((r) => ({
      name: r.name,
      breaks: r.breaks,
      area: r.area,
      expect: r.expect,
      verdict: r.verdict ?? null,
      caught: r.caught,
    })),
  };
}

export function scoreMarkdown(score: Score): string {
  const lines = [
    `Mutation score: **${score.caught}/${score.total}** caught (${score.percent}%)`,
    '',
    '| area | caught | total |',
    '| ---- | ------ | ----- |',
    ...score.areas.map((a) => `| ${a.area} | ${a.caught} | ${a.total} |`),
    `| **all** | **${score.caught}** | **${score.total}** |`,
    '',
    `Control (the proxy with no mutation, ${score.control.requirements} requirements): ` +
      (score.control.faithful
        ? 'every requirement passes'
        : `NOT faithful: ${[score.control.problem ?? '', ...score.control.unfaithful].filter(Boolean).join(', ')}`),
    '',
    '| variant | breaks | expected | verdict | caught |',
    '| ------- | ------ | -------- | ------- | ------ |',
    ...score.variants.map(
      (v) =>
        `| ${v.name} | ${v.breaks} | ${v.expect} | ${v.verdict ?? '(none)'} | ${v.caught ? 'yes' : '**no**'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
