// `--evidence`: how much wire evidence a run result keeps. `all` keeps every check's; `failing` keeps
// that of every check that did not pass (fail, error, not-exercised, not-applicable) and only the
// verdict of a passing one; `none` keeps no check's exchanges, streams, deliveries or curl line.
// Expected vs actual, the assertions of a check that did not pass and the reproduce command stay.
import type { CheckResult, EvidenceMode, RunResult } from '../types.ts';

const NO_EVIDENCE = (): CheckResult['evidence'] => ({ exchanges: [], streams: [], deliveries: [] });

function trimCheck(c: CheckResult, mode: Exclude<EvidenceMode, 'all'>): CheckResult {
  const passed = c.status === 'pass';
  if (mode === 'failing' && !passed) return c;
  const { curl: _curl, ...reproduce } = c.reproduce;
  return {
    ...c,
    // A passing check keeps only its verdict; the assertions of one that did not pass are the finding.
    assertions: passed ? [] : c.assertions,
    evidence: NO_EVIDENCE(),
    reproduce,
    evidenceOmitted: {
      evidence: mode,
      exchanges: c.evidence.exchanges.length,
      streams: c.evidence.streams.length,
      deliveries: c.evidence.deliveries.length,
      assertions: passed ? c.assertions.length : 0,
    },
  };
}

/** The result with the evidence `mode` does not keep left out (a new object; `all` returns it as is). */
export function trimEvidence(result: RunResult, mode: EvidenceMode): RunResult {
  if (mode === 'all') return result;
  return {
    ...result,
    requirements: result.requirements.map((r) => ({ ...r, checks: r.checks.map((c) => trimCheck(c, mode)) })),
  };
}
