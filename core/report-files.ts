// The report files a run writes into its --out directory, in the order they are written: the one list
// the reporters (reporters/index.ts renders each), the option table's help, the fleet (an agent's
// report is complete when it holds them all) and the guides' test (test/docs/) read.
export const REPORT_FILE_NAMES = [
  'report.json',
  'junit.xml',
  'report.html',
  'summary.md',
  'badge.svg',
  'console.txt',
  'report.har',
] as const;

export type ReportFileName = (typeof REPORT_FILE_NAMES)[number];

/** The names in prose: `report.json, junit.xml, ..., report.har`. */
export const REPORT_FILE_LIST = REPORT_FILE_NAMES.join(', ');
