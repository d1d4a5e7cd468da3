// The fleet reports of `fleet merge`, all from one FleetReport: fleet.json (schemas/fleet-report.schema.json),
// fleet.html (self-contained page), fleet.md (CI job summary) and junit.xml (one testsuite per agent,
// from each agent's report.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunResult } from '../../core/types.ts';
import type { FleetReport } from '../../schemas/generated/types.ts';
import { renderFleetHtml } from './fleet-html.ts';
import { renderFleetJunit } from './fleet-junit.ts';
import { renderFleetMarkdown } from './fleet-markdown.ts';

export { renderFleetHtml, renderFleetJunit, renderFleetMarkdown };

export const FLEET_FILES = Object.freeze(['fleet.json', 'fleet.html', 'fleet.md', 'junit.xml'] as const);

export function writeFleetReports(
  report: FleetReport,
  results: ReadonlyMap<string, RunResult>,
  outDir: string,
): { dir: string; files: string[] } {
  const dir = resolve(outDir);
  mkdirSync(dir, { recursive: true });
  const texts: Record<(typeof FLEET_FILES)[number], string> = {
    'fleet.json': `${JSON.stringify(report, null, 2)}\n`,
    'fleet.html': renderFleetHtml(report),
    'fleet.md': renderFleetMarkdown(report),
    'junit.xml': renderFleetJunit(report, results),
  };
  for (const name of FLEET_FILES) writeFileSync(join(dir, name), texts[name]);
  return { dir, files: [...FLEET_FILES] };
}
