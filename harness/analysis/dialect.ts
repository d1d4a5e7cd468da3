// Dialect detection: does the target speak the official A2A v0.3 or v1.0 JSON-RPC instead of this
// spec's? Two probe requests (sent only when the spec's card method gave no card) ask for the card
// under each dialect's method name; the run's exchanges show the other differences (dialect-rules.ts).
import type { Exchange } from '../../core/evidence.ts';
import type { TargetClient } from '../io/target/target-client.ts';
import type { RequirementResult } from '../../core/types.ts';
import { DIALECT_RULES, type DialectRule, type RunView } from './dialect-rules.ts';
import { decidingChecks, failureText, isFinding, resultsOf, rpcErrorOf } from './findings.ts';
import { isObject } from '../../schemas/json.ts';
import type { DialectId, DialectProbeAnswer, DialectReport } from '../../core/analysis.ts';

export const DIALECT_NAMES: Readonly<Record<DialectId, string>> = Object.freeze({
  'a2a-v0.3': 'the official A2A v0.3 JSON-RPC',
  'a2a-v1.0': 'the official A2A v1.0 JSON-RPC',
});

/** Each dialect's name for the extended card; v1.0 wants its version header (a missing one means 0.3). */
const PROBES: readonly { dialect: DialectId; method: string; headers: Record<string, string> }[] = [
  { dialect: 'a2a-v0.3', method: 'agent/getAuthenticatedExtendedCard', headers: {} },
  { dialect: 'a2a-v1.0', method: 'GetExtendedAgentCard', headers: { 'a2a-version': '1.0' } },
];

/**
 * Codes that do not show the method is known: not found, not a request, and invalid params (some
 * servers check params before they look the method up, and the probe's `{}` is valid for both).
 */
const NOT_SERVED = new Set([-32601, -32600, -32602, -32700]);

export function probeAnswer(dialect: DialectId, method: string, ex: Exchange): DialectProbeAnswer {
  const answer: DialectProbeAnswer = { dialect, method, served: false };
  if (ex.response === undefined) return answer;
  answer.status = ex.response.status;
  const error = rpcErrorOf(ex);
  if (error !== undefined) {
    answer.code = error.code;
    answer.message = error.message.slice(0, 200);
  }
  const json = ex.response.json;
  const hasResult = isObject(json) && isObject(json.result);
  answer.served =
    ex.response.status < 300 && (hasResult || (error !== undefined && !NOT_SERVED.has(error.code)));
  return answer;
}

/** Two requests: each dialect's extended-card method. Cheap, and sent only to a target that gave no card. */
export async function probeDialect(client: TargetClient): Promise<DialectProbeAnswer[]> {
  const answers: DialectProbeAnswer[] = [];
  for (const probe of PROBES) {
    try {
      const ex = await client.rpc(probe.method, {}, { headers: probe.headers });
      answers.push(probeAnswer(probe.dialect, probe.method, ex));
    } catch {
      // The client gave up on this request (e.g. rate limited throughout): no evidence either way.
      answers.push({ dialect: probe.dialect, method: probe.method, served: false });
    }
  }
  return answers;
}

function everyExchange(requirements: readonly RequirementResult[]): Exchange[] {
  return requirements.flatMap((r) => r.checks.flatMap((c) => c.evidence.exchanges));
}

export function runView(exchanges: readonly Exchange[]): RunView {
  const knownTaskIds = new Set<string>();
  for (const ex of exchanges) {
    for (const result of resultsOf(ex)) {
      for (const key of ['id', 'taskId']) {
        const id = result[key];
        if (typeof id === 'string' && (key === 'taskId' || result.status !== undefined)) knownTaskIds.add(id);
      }
    }
  }
  return { knownTaskIds };
}

/** The rule explains the finding when one of its deciding checks shows it (or says it, without exchanges). */
export function ruleExplains(rule: DialectRule, r: RequirementResult, view: RunView): boolean {
  return decidingChecks(r).some((check) => {
    const text = failureText(check);
    if (check.evidence.exchanges.length === 0) return rule.textOnly?.test(text) ?? false;
    const shown = check.evidence.exchanges.some((ex) => (rule.explains ?? rule.shows)(ex, view));
    return shown && (rule.failureWords?.test(text) ?? true);
  });
}

export interface DialectDetection {
  report: DialectReport;
  /** Requirement id -> id of the difference that explains it. */
  explains: Map<string, string>;
  rules: DialectRule[];
  view: RunView;
}

/** The run's first lines when a probe method of another dialect is served: said before any suite runs. */
export function dialectProbeLines(answers: readonly DialectProbeAnswer[] = []): string[] {
  return answers
    .filter((a) => a.served)
    .map(
      (a) =>
        `dialect: the agent may speak ${DIALECT_NAMES[a.dialect]}, not this spec's: ${probeLine(a)}; the failures it explains are grouped at the end`,
    );
}

function probeLine(a: DialectProbeAnswer): string {
  const answer = a.code === undefined ? 'a result' : `${a.code}${a.message ? ` "${a.message}"` : ''}`;
  return `\`${a.method}\` is served (HTTP ${a.status ?? '?'}, ${answer}): ${DIALECT_NAMES[a.dialect]} names the extended card so`;
}

interface Candidate {
  id: DialectId;
  score: number;
  rules: DialectRule[];
}

/**
 * Names a dialect when its probe method is served and at least one difference of it was seen, or
 * when two differences of it were seen, one of wire form. A target of this spec with one odd code
 * is never taken for another dialect.
 */
function pickDialect(
  seen: readonly DialectRule[],
  probe: readonly DialectProbeAnswer[],
): Candidate | undefined {
  let best: Candidate | undefined;
  for (const id of Object.keys(DIALECT_NAMES) as DialectId[]) {
    const rules = seen.filter((rule) => rule.dialects.includes(id));
    const served = probe.some((a) => a.dialect === id && a.served);
    const structural = rules.filter((rule) => rule.structural).length;
    const named = (served && rules.length > 0) || (structural > 0 && rules.length >= 2);
    const score = (served ? 2 : 0) + structural * 2 + rules.length;
    if (named && (best === undefined || score > best.score)) best = { id, score, rules };
  }
  return best;
}

function dialectReport(
  best: Candidate,
  probe: readonly DialectProbeAnswer[],
  explains: ReadonlyMap<string, string>,
  findings: number,
): DialectReport {
  const count = (rule: string): number => [...explains.values()].filter((v) => v === rule).length;
  return {
    id: best.id,
    name: DIALECT_NAMES[best.id],
    evidence: [
      ...probe.filter((a) => a.dialect === best.id && a.served).map(probeLine),
      ...best.rules.map((rule) => `${rule.seen(best.id)} (spec: ${rule.spec})`),
    ],
    differences: best.rules.map((rule) => ({
      id: rule.id,
      spec: rule.spec,
      seen: rule.seen(best.id),
      requirements: count(rule.id),
    })),
    explained: explains.size,
    findings,
  };
}

/** The dialect the run shows, if any, and which of its differences explains each finding. */
export function detectDialect(
  requirements: readonly RequirementResult[],
  probe: readonly DialectProbeAnswer[] = [],
): DialectDetection | undefined {
  const exchanges = everyExchange(requirements);
  const view = runView(exchanges);
  const best = pickDialect(
    DIALECT_RULES.filter((rule) => exchanges.some((ex) => rule.shows(ex, view))),
    probe,
  );
  if (best === undefined) return undefined;
  const findings = requirements.filter(isFinding);
  const explains = new Map<string, string>();
  for (const r of findings) {
    const rule = best.rules.find((candidate) => ruleExplains(candidate, r, view));
    if (rule !== undefined) explains.set(r.id, rule.id);
  }
  // A dialect that explains no finding is not worth a word: the target does what the spec asks.
  if (explains.size === 0) return undefined;
  return { report: dialectReport(best, probe, explains, findings.length), explains, rules: best.rules, view };
}
