// Prints the outcome of the hostile cases as a Markdown table (pasted as is into RELIABILITY.md),
// then every broken bound, and the report directory of each run for a closer look.
import { VERDICTS } from '../../core/types.ts';
import { SHORT_VERDICT } from '../../reporters/console/console-summary.ts';
import { mib, type Budget } from './bounds.ts';
import type { CaseOutcome } from './run-case.ts';

function counts(o: CaseOutcome): string {
  const by = o.run.report?.summary.byVerdict;
  if (by === undefined) return '-';
  return VERDICTS.filter((v) => by[v] > 0)
    .map((v) => `${by[v]} ${SHORT_VERDICT[v]}`)
    .join(', ');
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function printTable(outcomes: CaseOutcome[], budget: Budget, print: (line: string) => void): void {
  print('');
  print(
    row([
      'target',
      'exit',
      'wall (s)',
      'CLI peak RSS (MiB)',
      'worker peak RSS (MiB)',
      'report.json',
      'verdicts',
      'bounds',
    ]),
  );
  print(row(['---', '---', '---:', '---:', '---:', '---', '---', '---']));
  for (const o of outcomes) {
    const r = o.run;
    const report = r.report === undefined ? 'none' : 'valid';
    print(
      row([
        o.case.name,
        String(r.exitCode ?? r.signal),
        (r.wallMs / 1000).toFixed(1),
        r.rss.measured ? String(mib(r.rss.rootBytes)) : '-',
        r.rss.measured ? String(mib(r.rss.descendantBytes)) : '-',
        o.broken.some((b) => b.startsWith('report')) ? 'invalid' : report,
        counts(o),
        o.broken.length === 0 ? 'kept' : 'BROKEN',
      ]),
    );
  }
  print('');
  print(
    `bounds: exit 2 when the probe fails, else 1 or 2 on the whole ledger (2 once --budget-ms is spent with a check still waiting on the target) and the case's exit on a short slice (0 where no check got a complete answer); wall <= ` +
      `--budget-ms ${budget.budgetMs} + ${budget.marginMs} ms; report.json schema-valid, its exitCode the ` +
      `process's; no pass when the probe failed; affected requirements never pass; no 100% score` +
      (budget.maxCliRssBytes === undefined
        ? ''
        : `; CLI RSS <= ${mib(budget.maxCliRssBytes)} MiB, worker RSS <= ${mib(budget.maxWorkerRssBytes ?? 0)} MiB`),
  );
  for (const o of outcomes) {
    const stats = Object.entries(o.targetStats)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    print(`  ${o.case.name}: target ${stats}; reports in ${o.run.out}`);
    for (const b of o.broken) print(`    BROKEN: ${b}`);
  }
}
