// `--evidence`: how much wire evidence a run result keeps. `all` keeps every check's; `failing` keeps
// that of every check that did not pass (fail, error, not-exercised, not-applicable) and only the
// verdict of a passing one; `none` keeps no check's exchanges, streams, deliveries or curl line.
// Expected vs actual, the assertions of a check that did not pass and the reproduce command stay.
// A result trimmed again (a fleet merge trims the reports it reads) keeps the first counts.
import type { CheckResult, EvidenceMode, RunResult } from '../../core/types.ts';

const NO_EVIDENCE = (): CheckResult['evidence'] => ({ exchanges: [], streams: [], deliveries: [] });

function trimCheck(c: CheckResult, mode: Exclude<EvidenceMode, 'all'>): CheckResult {
  const passed = c.status === 'pass';
  if (mode === 'failing' && !passed) return c;
  const { curl: _curl, ...reproduce } = c.reproduce;
  const before = c.evidenceOmitted;
  return {
    ...c,
    // A passing check keeps only its verdict; the assertions of one that did not pass are the finding.
    assertions: passed ? [] : c.assertions,
    evidence: NO_EVIDENCE(),
    // The runs of a re-run check keep their outcome and faults, not their evidence.
    ...(c.runs === undefined ? {} : { runs: c.runs.map(({ evidence: _e, assertions: _a, ...run }) => run) }),
    reproduce,
    evidenceOmitted: {
      // The stricter mode names what is missing: none also dropped the evidence failing kept.
      evidence: before?.evidence === 'none' ? 'none' : mode,
      exchanges: (before?.exchanges ?? 0) + c.evidence.exchanges.length,
      streams: (before?.streams ?? 0) + c.evidence.streams.length,
      deliveries: (before?.deliveries ?? 0) + c.evidence.deliveries.length,
      assertions: (before?.assertions ?? 0) + (passed ? c.assertions.length : 0),
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
