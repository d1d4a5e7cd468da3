// report.json: the whole RunResult plus its compliance level and score (reporters/score.ts), for
// other tools to consume; its shape is published as schemas/report.schema.json (draft 2020-12).
import type { RunResult } from '../harness/types.ts';
import { complianceOf, type Compliance } from './score.ts';

export const REPORT_SCHEMA_ID = 'https://a2a-conformance.dev/schemas/report.schema.json';

export type ReportDocument = { $schema: string } & RunResult & { compliance: Compliance };

export function reportDocument(result: RunResult): ReportDocument {
  return { $schema: REPORT_SCHEMA_ID, ...result, compliance: complianceOf(result) };
}

export function renderJsonReport(result: RunResult): string {
  return `${JSON.stringify(reportDocument(result), null, 2)}\n`;
}
