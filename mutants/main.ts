// `npm run mutants [-- --concurrency N] [--extended] [--keep-reports] [name-filter...]`: runs every variant (or
// those whose name contains a filter) and the control, prints the score table and writes
// mutants/results/score.{json,md} (and each variant's reports under mutants/results/reports/).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadVariants, runMutants } from './runner.ts';
import { computeScore, scoreMarkdown } from './score.ts';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

const args = process.argv.slice(2);
let concurrency = 3;
let keep: string | undefined;
let extended = false;
const filters: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--concurrency') concurrency = Number(args[++i]);
  else if (args[i] === '--keep-reports') keep = join(RESULTS, 'reports');
  else if (args[i] === '--extended') extended = true;
  else filters.push(args[i] as string);
}
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write('--concurrency must be a positive integer\n');
  process.exit(2);
}

const all = await loadVariants(undefined, { extended });
const variants = filters.length === 0 ? all : all.filter((v) => filters.some((f) => v.name.includes(f)));
process.stdout.write(`${variants.length} variants, ${concurrency} at a time\n`);
const run = await runMutants(variants, {
  concurrency,
  keep,
  onResult: (r) => {
    const mark = r.caught ? 'caught' : 'MISSED';
    const extra = r.problem !== undefined ? ` (${r.problem})` : '';
    process.stdout.write(`${mark.padEnd(7)} ${r.name}: ${r.breaks} ${r.verdict ?? '-'}${extra}\n`);
  },
});
const score = computeScore(run);
const md = scoreMarkdown(score);
process.stdout.write(`\n${md}\n${(run.durationMs / 1000).toFixed(1)} s\n`);
await mkdir(RESULTS, { recursive: true });
await writeFile(join(RESULTS, 'score.json'), `${JSON.stringify(score, null, 2)}\n`);
await writeFile(join(RESULTS, 'score.md'), md);
process.exit(score.caught === score.total && score.control.faithful ? 0 : 1);
