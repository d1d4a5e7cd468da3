// The tool line of every report: name, version and the ledger the run was graded against
// (tool.ledger), so that two reports side by side show whether their verdicts compare.
import type { RunResult } from './types.ts';

/** `a2a-conformance 0.1.0, ledger 1a2b3c4d5e6f`; without the ledger for reports of older versions. */
export function toolLabel(tool: RunResult['tool']): string {
  const ledger = tool.ledger === undefined ? '' : `, ledger ${tool.ledger.hash}`;
  return `${tool.name} ${tool.version}${ledger}`;
}
