// report.json: the whole RunResult plus its compliance level and score (reporters/score.ts), for
// other tools to consume; its shape is published as schemas/report.schema.json (draft 2020-12).
import type { RunResult } from '../core/types.ts';
import type { ConformanceReport } from '../schemas/generated/types.ts';
import { complianceOf, type Compliance } from './score.ts';

export const REPORT_SCHEMA_ID = 'https://a2a-conformance.dev/schemas/report.schema.json';

/** report.json as this version writes it: a ConformanceReport with its $schema and every compliance field. */
export type ReportDocument = RunResult & {
  $schema: NonNullable<ConformanceReport['$schema']>;
  compliance: Compliance;
};

export function reportDocument(result: RunResult): ReportDocument {
  return { $schema: REPORT_SCHEMA_ID, ...result, compliance: complianceOf(result) };
}

export function renderJsonReport(result: RunResult): string {
  return `${JSON.stringify(reportDocument(result), null, 2)}\n`;
}
