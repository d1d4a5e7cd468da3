// Where a field run's agent turns and time go, per suite file, read from a report.json written with
// `--evidence all` (every check keeps its exchanges): `npm run field -- --breakdown` prints it per
// condition, so a profile's or a suite file's cost on a slow agent can be measured, not guessed.
import { isAgentTurnRequest } from '../../harness/io/target/agent-turn.ts';

interface Exchange {
  id?: string;
  request?: { json?: unknown };
  timings?: { startedAt?: string; totalMs?: number };
}

export interface BreakdownReport {
  requirements: Array<{
    id: string;
    checks?: Array<{ file?: string; durationMs?: number; evidence?: { exchanges?: Exchange[] } }>;
  }>;
}

export interface FileCost {
  file: string;
  checks: number;
  /** Well-formed message/send and message/stream requests: turns an LLM agent would take. */
  turns: number;
  requests: number;
  /** Seconds from the run's first request to the file's first. */
  startS: number;
  /** Seconds from the file's first request to the end of its last. */
  spanS: number;
  /** The file's check durations, summed (concurrent checks overlap, so this may exceed the span). */
  checkS: number;
}

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

/** Per suite file, most turns first. */
export function fileCosts(report: BreakdownReport): FileCost[] {
  const files = new Map<string, FileCost & { from: number; to: number; ms: number }>();
  // A check that reads a shared sample cites the exchanges another check of its file sent: each is
  // counted once per file (the same exchange: its id, when it started and its JSON-RPC id).
  const seen = new Set<string>();
  for (const r of report.requirements) {
    for (const check of r.checks ?? []) {
      const file = (check.file ?? '?').replace(/^suites\//, '');
      const f = files.get(file) ?? {
        ...{ file, checks: 0, turns: 0, requests: 0, startS: 0, spanS: 0, checkS: 0 },
        ...{ from: Infinity, to: 0, ms: 0 },
      };
      f.checks += 1;
      f.ms += check.durationMs ?? 0;
      for (const ex of check.evidence?.exchanges ?? []) {
        const rpcId = (ex.request?.json as { id?: unknown } | undefined)?.id;
        const key = `${file} ${ex.id ?? ''} ${ex.timings?.startedAt ?? ''} ${JSON.stringify(rpcId ?? null)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        f.requests += 1;
        if (isAgentTurnRequest(ex.request?.json)) f.turns += 1;
        const at = Date.parse(ex.timings?.startedAt ?? '');
        if (Number.isNaN(at)) continue;
        f.from = Math.min(f.from, at);
        f.to = Math.max(f.to, at + (ex.timings?.totalMs ?? 0));
      }
      files.set(file, f);
    }
  }
  const first = Math.min(...[...files.values()].map((f) => f.from));
  return [...files.values()]
    .map(({ from, to, ms, ...f }) => ({
      ...f,
      startS: from === Infinity ? 0 : seconds(from - first),
      spanS: from === Infinity ? 0 : seconds(to - from),
      checkS: seconds(ms),
    }))
    .sort((a, b) => b.turns - a.turns || b.spanS - a.spanS);
}

/** A Markdown table of fileCosts(), the files that cost nothing left out. */
export function breakdownTable(report: BreakdownReport): string {
  const rows = fileCosts(report).filter((f) => f.turns > 0 || f.spanS >= 1);
  const lines = [
    '| suite file | checks | agent turns | requests | starts at s | span s | check time s |',
    `|${' --- |'.repeat(7)}`,
  ];
  for (const f of rows)
    lines.push(
      `| ${f.file} | ${f.checks} | ${f.turns} | ${f.requests} | ${f.startS} | ${f.spanS} | ${f.checkS} |`,
    );
  return lines.join('\n');
}
