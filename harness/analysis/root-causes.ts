// Root causes: when many findings share one cause (the same unexpected error code, HTTP status,
// missing field or unanswered request, or a difference of another dialect), the reports lead with
// that cause and the requirements it explains. Each finding is explained by at most one cause.
import { ERROR_MESSAGES, type ErrorCode } from '../../schemas/error-codes.ts';
import type { Exchange } from '../../core/evidence.ts';
import type { CheckResult, RequirementResult } from '../../core/types.ts';
import { detectDialect } from './dialect.ts';
import {
  decidingChecks,
  exchangeLine,
  expectedCodes,
  expectedStatuses,
  isFinding,
  methodOf,
  paramsOf,
  resultsOf,
  rpcErrorOf,
} from './findings.ts';
import { normalise } from '../../core/describe.ts';
import { isObject } from '../../schemas/json.ts';
import type { DialectProbeAnswer, RootCause, RootCauseKind, RunAnalysis } from '../../core/analysis.ts';

/** A cause is worth leading with when it explains at least this many findings. */
export const MIN_SHARED = 3;
/** At most this many causes besides the dialect's differences: the rest read better one by one. */
export const MAX_CAUSES = 8;

interface Symptom {
  kind: RootCauseKind;
  key: string;
  /** `answered -32001 "Task not found: …"`: completed with the methods seen when grouped. */
  cause: string;
  expected?: string;
  method?: string;
  example?: Exchange;
}

function specMeaning(code: number): string | undefined {
  const meaning = ERROR_MESSAGES[code as ErrorCode];
  return meaning === undefined ? undefined : `in this spec ${code} means "${meaning}"`;
}

/** The ids of the tasks the run made: every task a result carried (a result with an id and a status). */
function madeTaskIds(requirements: readonly RequirementResult[]): Set<string> {
  const ids = new Set<string>();
  for (const r of requirements) {
    for (const check of r.checks) {
      for (const ex of check.evidence.exchanges) {
        for (const result of resultsOf(ex)) {
          if (typeof result.id === 'string' && isObject(result.status)) ids.add(result.id);
        }
      }
    }
  }
  return ids;
}

/**
 * The classic scale-out bug: a task the run made through the target is answered "not found" by the
 * same target, so the request reached a replica that keeps tasks in its own memory.
 */
const STATE_NOT_SHARED: Omit<Symptom, 'example' | 'method'> = {
  kind: 'state-not-shared',
  key: 'state-not-shared',
  cause:
    'replicas do not share task state: tasks this run made through the target were answered "not found" by it',
  expected:
    'one agent behind the target: a task it made is known to every later request (spec 4.3-4.7); `run --replica <url>` for each replica names the one that does not know it',
};

function exchangeSymptom(ex: Exchange, check: CheckResult, made: ReadonlySet<string>): Symptom | undefined {
  const method = methodOf(ex);
  const base = { ...(method === undefined ? {} : { method }), example: ex };
  const notFound = rpcErrorOf(ex);
  const taskId = paramsOf(ex).taskId;
  if (
    notFound !== undefined &&
    /not found/i.test(notFound.message) &&
    typeof taskId === 'string' &&
    made.has(taskId)
  ) {
    return { ...base, ...STATE_NOT_SHARED };
  }
  if (ex.response === undefined) {
    const kind = ex.error?.kind ?? 'other';
    return {
      ...base,
      kind: 'no-answer',
      key: `no-answer ${kind}`,
      cause: `got no complete answer (${kind})`,
    };
  }
  const status = ex.response.status;
  const error = rpcErrorOf(ex);
  if (error !== undefined) {
    if (expectedCodes(check).has(error.code)) return undefined;
    const on = status === 200 ? '' : ` on HTTP ${status}`;
    const meaning = specMeaning(error.code);
    return {
      ...base,
      kind: 'error-code',
      key: `error-code ${status} ${error.code} ${normalise(error.message)}`,
      cause: `answered ${error.code} "${error.message.slice(0, 80)}"${on}`,
      ...(meaning === undefined ? {} : { expected: meaning }),
    };
  }
  const json = ex.response.json;
  const jsonRpc = isObject(json) && ('result' in json || 'error' in json);
  if (status >= 400 && !jsonRpc) {
    // Every error of this spec has a JSON-RPC body (C-03), whatever the status.
    return {
      ...base,
      kind: 'http-status',
      key: `http-status ${status} no-body`,
      cause: `answered HTTP ${status} without a JSON-RPC error body`,
    };
  }
  if (status >= 400 && !expectedStatuses(check).has(status)) {
    return { ...base, kind: 'http-status', key: `http-status ${status}`, cause: `answered HTTP ${status}` };
  }
  return undefined;
}

/** Field paths a failed assertion reports missing: an undefined actual, or schema `required` errors. */
function missingFields(label: string, actual: unknown): string[] {
  if (actual === undefined) return /^[\w$]+(\.[\w$]+|\[\d+\])*$/.test(label) ? [label] : [];
  const fields: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || fields.length > 10) return;
    if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (isObject(v)) {
      const property = /required property '([^']+)'/.exec(String(v.message))?.[1];
      if (v.keyword === 'required' && property !== undefined) {
        const path = typeof v.path === 'string' ? v.path : '';
        // Some schema errors name the missing member in their path already.
        fields.push(path === '' ? property : path.endsWith(property) ? path : `${path}.${property}`);
      } else if (v.keyword === 'discriminator' && typeof v.path === 'string') fields.push(v.path);
      else Object.values(v).forEach((x) => walk(x, depth + 1));
    }
  };
  walk(actual, 0);
  return fields;
}

function isErrorCode(v: unknown): v is number {
  return typeof v === 'number' && v <= -32000 && v >= -32768;
}

function assertionSymptoms(check: CheckResult): Symptom[] {
  const symptoms: Symptom[] = [];
  const failed = check.assertions.filter((x) => !x.pass);
  // Without the error, its code, details and field are all missing: one cause, not four.
  const noError = failed.some((a) => isErrorCode(a.expected) && a.actual === undefined);
  for (const a of failed) {
    if (isErrorCode(a.expected) && a.actual === undefined) {
      // Served: a JSON-RPC result where an error was due (an unanswered or bodiless request is another cause).
      const served = check.evidence.exchanges.find((ex) => {
        const json = ex.response?.json;
        return isObject(json) && 'result' in json;
      });
      if (served !== undefined || check.evidence.exchanges.length === 0)
        symptoms.push({
          kind: 'no-error',
          key: `no-error ${a.expected}`,
          cause: `no error where the spec requires ${a.expected}: the request was served`,
          ...(served === undefined ? {} : { example: served }),
        });
      continue;
    }
    for (const field of missingFields(a.label, a.actual)) {
      if (noError && /(^|\W)error\./.test(field)) continue;
      const path = field.replace(/\[\d+\]/g, '[]');
      symptoms.push({
        kind: 'missing-field',
        key: `missing-field ${path}`,
        cause: `\`${path}\` missing or not as specified`,
      });
    }
  }
  return symptoms;
}

function checkSymptoms(check: CheckResult, made: ReadonlySet<string>): Symptom[] {
  const fromExchanges = check.evidence.exchanges.flatMap((ex) => exchangeSymptom(ex, check, made) ?? []);
  const symptoms = [...fromExchanges, ...assertionSymptoms(check)];
  if (symptoms.length === 0 && check.status === 'error') {
    const why = check.message.split('\n')[0]!.slice(0, 160);
    symptoms.push({ kind: 'harness-error', key: `harness-error ${normalise(why)}`, cause: why });
  }
  return symptoms;
}

interface Group {
  first: Symptom;
  methods: Set<string>;
  requirements: Set<string>;
}

function causeText(g: Group): string {
  const methods = [...g.methods];
  const who =
    methods.length === 0 ? '' : `${methods.slice(0, 3).join(', ')}${methods.length > 3 ? ', …' : ''} `;
  return g.first.kind === 'state-not-shared'
    ? `${g.first.cause} (${methods.join(', ')})`
    : g.first.kind === 'error-code' || g.first.kind === 'http-status' || g.first.kind === 'no-answer'
      ? `${who}${g.first.cause}`
      : g.first.cause;
}

/** Greedy: the cause shared by the most findings first, its findings taken out of every other cause. */
function groupFindings(findings: readonly RequirementResult[], made: ReadonlySet<string>): RootCause[] {
  const groups = new Map<string, Group>();
  for (const r of findings) {
    for (const s of decidingChecks(r).flatMap((c) => checkSymptoms(c, made))) {
      const g = groups.get(s.key) ?? {
        first: s,
        methods: new Set<string>(),
        requirements: new Set<string>(),
      };
      if (s.method !== undefined) g.methods.add(s.method);
      g.requirements.add(r.id);
      groups.set(s.key, g);
    }
  }
  const verdictOf = new Map(findings.map((r) => [r.id, r.verdict]));
  const order = new Map(findings.map((r, i) => [r.id, i]));
  const causes: RootCause[] = [];
  while (causes.length < MAX_CAUSES) {
    const top = [...groups.values()].sort((a, b) => b.requirements.size - a.requirements.size)[0];
    if (top === undefined || top.requirements.size < MIN_SHARED) break;
    const ids = [...top.requirements].sort((a, b) => order.get(a)! - order.get(b)!);
    const cause: RootCause = {
      kind: top.first.kind,
      key: top.first.key,
      cause: causeText(top),
      requirements: ids.map((id) => ({ id, verdict: verdictOf.get(id)! })),
    };
    if (top.first.expected !== undefined) cause.expected = top.first.expected;
    if (top.first.example !== undefined) cause.example = exchangeLine(top.first.example);
    causes.push(cause);
    for (const g of groups.values()) for (const id of ids) g.requirements.delete(id);
  }
  return causes;
}

/**
 * The run's dialect (when it is another one) and its root causes: the dialect's differences first,
 * each with the findings it explains, then the causes shared by the other findings.
 */
export function analyseRun(
  requirements: readonly RequirementResult[],
  probe: readonly DialectProbeAnswer[] = [],
): RunAnalysis {
  const findings = requirements.filter(isFinding);
  const detection = detectDialect(requirements, probe);
  const causes: RootCause[] = [];
  if (detection !== undefined) {
    for (const rule of detection.rules) {
      const ids = findings.filter((r) => detection.explains.get(r.id) === rule.id);
      if (ids.length === 0) continue;
      const example = ids
        .flatMap((r) => decidingChecks(r).flatMap((c) => c.evidence.exchanges))
        .find((ex) => (rule.explains ?? rule.shows)(ex, detection.view));
      const cause: RootCause = {
        kind: 'dialect',
        key: `dialect ${rule.id}`,
        cause: rule.seen(detection.report.id),
        expected: rule.spec,
        requirements: ids.map((r) => ({ id: r.id, verdict: r.verdict })),
      };
      if (example !== undefined) cause.example = exchangeLine(example);
      causes.push(cause);
    }
  }
  causes.sort((a, b) => b.requirements.length - a.requirements.length);
  const rest = findings.filter((r) => !detection?.explains.has(r.id));
  causes.push(...groupFindings(rest, madeTaskIds(requirements)));
  return detection === undefined ? { rootCauses: causes } : { dialect: detection.report, rootCauses: causes };
}

/** The error's name and message, e.g. `TypeError: Cannot read properties of undefined`. */
function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * analyseRun() that never loses the run: the analysis only adds to the verdicts, so when it fails
 * the run keeps them, without root causes, and `error` names the failure (a harness error).
 */
export function analyseRunSafely(
  requirements: readonly RequirementResult[],
  probe: readonly DialectProbeAnswer[] = [],
): { analysis: RunAnalysis; error?: string; stack?: string } {
  try {
    return { analysis: analyseRun(requirements, probe) };
  } catch (e) {
    const stack = e instanceof Error ? e.stack : undefined;
    return {
      analysis: { rootCauses: [] },
      error: `root-cause analysis failed: ${describeError(e)}`,
      ...(stack === undefined ? {} : { stack }),
    };
  }
}
