// The report files every run writes into --out (a public contract: README, docs/reports.md), named
// here once for the tests that check a run wrote them all, sorted as readdirSync().sort() lists them.
export const REPORT_FILE_NAMES: readonly string[] = Object.freeze(
  ['badge.svg', 'console.txt', 'junit.xml', 'report.har', 'report.html', 'report.json', 'summary.md'].sort(),
);
