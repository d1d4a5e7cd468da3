// The lines that lead the console summary, before the tables: how the run went on the wire
// (reporters/traffic.ts), the dialect the agent speaks when it is not this spec's, and the root
// causes many findings share (reporters/root-causes.ts), each with the requirements it explains.
import type { RunResult } from '../../core/types.ts';
import {
  causeHeadline,
  dialectCount,
  dialectHeadline,
  dialectOf,
  explainedCount,
  idList,
  rootCausesOf,
} from '../root-causes.ts';
import { trafficFacts } from '../traffic.ts';
import type { Palette } from './ansi.ts';
import type { ConsoleMode } from './console-mode.ts';

export function trafficLines(result: RunResult): string[] {
  const facts = trafficFacts(result);
  return facts.length === 0 ? [] : [`traffic: ${facts.map((f) => `${f.label} ${f.value}`).join(' · ')}`];
}

function findingCount(result: RunResult): number {
  return result.requirements.filter((r) => ['fail', 'warn', 'error'].includes(r.verdict)).length;
}

export function dialectLines(result: RunResult, p: Palette, mode: ConsoleMode): string[] {
  const d = dialectOf(result);
  if (d === undefined) return [];
  const head = p.style('bold', p.verdict('fail', `DIALECT ${dialectHeadline(d)}: ${dialectCount(d)}`));
  // The differences follow as root causes, each with the requirements it explains.
  const probe = d.evidence.filter((line) => line.includes(' is served ('));
  return mode === 'quiet' ? [head] : [head, ...probe.map((l) => `  - ${l}`)];
}

export function rootCauseLines(result: RunResult, p: Palette, mode: ConsoleMode): string[] {
  const causes = rootCausesOf(result);
  if (causes.length === 0) return [];
  const lines = [
    p.style('bold', `Root causes (${explainedCount(result)} of ${findingCount(result)} findings)`),
  ];
  causes.forEach((cause, i) => {
    lines.push(`  ${i + 1}. ${causeHeadline(cause)}`);
    if (mode === 'quiet') return;
    lines.push(`     ${idList(cause, mode === 'verbose' ? Infinity : 6)}`);
    if (cause.example !== undefined) lines.push(p.style('grey', `     e.g. ${cause.example}`));
  });
  return lines;
}

/** Traffic, dialect and root causes: what a reader needs before the 150 lines they explain. */
export function leadLines(result: RunResult, p: Palette, mode: ConsoleMode): string[] {
  const traffic = mode === 'quiet' ? [] : trafficLines(result);
  return [...traffic, ...dialectLines(result, p, mode), ...rootCauseLines(result, p, mode)];
}
