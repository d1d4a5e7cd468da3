// `npm run mutants [-- --concurrency N] [--run-timeout S] [--profile P] [--extended] [--keep-reports] [--mutants | --legal] [name-filter...]`:
// runs every mutant (or those whose name contains a filter) and its control, then every legal variant
// (mutants/legal/) and its control; prints both scores and writes mutants/results/score.{json,md} and
// legal-score.{json,md} (and each run's reports under mutants/results/reports/ with --keep-reports).
// `--mutants` or `--legal` runs only that set.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { positiveInt, scriptCommand } from '../scripts/args.ts';
import { computeLegalScore, legalScoreMarkdown, loadLegalVariants, runLegal } from './legal-run.ts';
import { loadVariants, runMutants, setRunProfile, setRunTimeoutMs } from './runner.ts';
import { computeScore, scoreMarkdown } from './score.ts';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

const command = scriptCommand(
  'npm run mutants --',
  'Run the mutants (each must be caught) and the legal variants (each must stay clean), with their controls.',
)
  .argument('[name-filter...]', 'only the variants whose name contains one of these')
  .option('--concurrency <n>', 'variants run at once', positiveInt, 3)
  .option(
    '--run-timeout <s>',
    'seconds after which one harness run is killed (a busy machine needs more)',
    positiveInt,
    240,
  )
  .option(
    '--profile <profile>',
    "the harness's --profile in every run: smoke, standard (the harness's default) or full",
  )
  .option('--extended', 'also the extended set of mutants')
  .option('--keep-reports', "keep each run's reports under mutants/results/reports/")
  .option('--mutants', 'only the mutants')
  .option('--legal', 'only the legal variants')
  .parse();
const flags = command.opts<{
  concurrency: number;
  runTimeout: number;
  profile?: string;
  extended?: boolean;
  keepReports?: boolean;
  mutants?: boolean;
  legal?: boolean;
}>();
const filters = command.processedArgs[0] as string[];
const concurrency = flags.concurrency;
setRunTimeoutMs(flags.runTimeout * 1000);
if (flags.profile !== undefined) {
  if (!['smoke', 'standard', 'full'].includes(flags.profile)) {
    process.stderr.write(`--profile must be smoke, standard or full (got ${flags.profile})\n`);
    process.exit(2);
  }
  setRunProfile(flags.profile);
}
const keep = flags.keepReports === true ? join(RESULTS, 'reports') : undefined;
const extended = flags.extended === true;
// Either flag alone runs only its set; both (like neither) run both.
const sets = {
  mutants: flags.mutants === true || flags.legal !== true,
  legal: flags.legal === true || flags.mutants !== true,
};
const picked = <T extends { name: string }>(all: T[]): T[] =>
  filters.length === 0 ? all : all.filter((v) => filters.some((f) => v.name.includes(f)));
await mkdir(RESULTS, { recursive: true });
let ok = true;

if (sets.mutants) {
  const variants = picked(await loadVariants(undefined, { extended }));
  process.stdout.write(`${variants.length} mutants, ${concurrency} at a time\n`);
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
  await writeFile(join(RESULTS, 'score.json'), `${JSON.stringify(score, null, 2)}\n`);
  await writeFile(join(RESULTS, 'score.md'), md);
  ok &&= score.caught === score.total && score.control.faithful;
}

if (sets.legal) {
  const variants = picked(await loadLegalVariants());
  process.stdout.write(`\n${variants.length} legal variants, ${concurrency} at a time\n`);
  const run = await runLegal(variants, {
    concurrency,
    keep,
    onResult: (r) => {
      const found = r.problem ?? (r.falseFindings.join(', ') || `${r.unexercised.length} not exercised`);
      process.stdout.write(`${(r.clean ? 'clean' : 'FALSE').padEnd(7)} ${r.name}: ${found}\n`);
    },
  });
  const score = computeLegalScore(run);
  const md = legalScoreMarkdown(score);
  process.stdout.write(`\n${md}\n${(run.durationMs / 1000).toFixed(1)} s\n`);
  await writeFile(join(RESULTS, 'legal-score.json'), `${JSON.stringify(score, null, 2)}\n`);
  await writeFile(join(RESULTS, 'legal-score.md'), md);
  ok &&= score.clean === score.total && score.controlProblem === null;
}
process.exit(ok ? 0 : 1);
