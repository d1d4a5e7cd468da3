// Groups the collected check results by requirement and folds each requirement's verdict (ledger
// level, agent card capabilities). Selected requirements without a check are not-exercised.
import type { Requirement } from '../../requirements/types.ts';
import { absentCapabilities } from '../capabilities.ts';
import { reproduceCommand, type ReproduceBase } from '../reproduce.ts';
import type { CheckResult, HarnessError, RequirementResult } from '../../core/types.ts';
import { foldVerdict } from '../../core/verdict.ts';
import type { CollectedTest } from './collector.ts';

export interface AssembleInput {
  selected: readonly Requirement[];
  tests: readonly CollectedTest[];
  card: Record<string, unknown> | null;
  reproduce: ReproduceBase;
  /**
   * Why a requirement has no result when the run's budget ended before its checks ran: it is
   * not-exercised with this message (naming the --budget-ms that would fit it), never an error.
   */
  budgetSpent?: string;
}

/** The ledger's part of a requirement's result, the same whatever its checks found. */
export function ledgerFields(
  r: Requirement,
): Pick<RequirementResult, 'id' | 'section' | 'role' | 'level' | 'behaviour' | 'rulings'> {
  return {
    id: r.id,
    section: r.section,
    role: r.role,
    level: r.level,
    behaviour: r.behaviour,
    rulings: [...(r.rulings ?? [])],
  };
}

/** Splits `<id> <title>` as verifies() names its tests. */
export function splitTestName(name: string): { id: string; title: string } {
  const space = name.indexOf(' ');
  return space < 0 ? { id: name, title: '' } : { id: name.slice(0, space), title: name.slice(space + 1) };
}

export function errorCheck(
  id: string,
  title: string,
  message: string,
  reproduce: ReproduceBase,
  file?: string,
): CheckResult {
  return {
    requirementId: id,
    title,
    status: 'error',
    message,
    assertions: [],
    notes: [],
    evidence: { exchanges: [], streams: [], deliveries: [] },
    durationMs: 0,
    reproduce: { command: reproduceCommand(reproduce, id) },
    ...(file === undefined ? {} : { file }),
  };
}

/** A test that ran without leaving a CheckResult: vitest's own timeout, or a test not using verifies(). */
function orphanResult(
  test: CollectedTest,
  ids: ReadonlySet<string>,
  input: AssembleInput,
): CheckResult | HarnessError | null {
  if (test.state === 'skipped' || test.state === 'pending') return null;
  const { id, title } = splitTestName(test.name);
  if (!ids.has(id)) {
    return {
      message: `test "${test.name}" ran but is not bound to a requirement through verifies()`,
      file: test.file,
    };
  }
  const why = test.errors[0] ?? `test ended ${test.state} without a check result`;
  return errorCheck(id, title, `harness error: ${why}`, input.reproduce, test.file);
}

export function assembleRequirements(input: AssembleInput): {
  requirements: RequirementResult[];
  harnessErrors: HarnessError[];
} {
  const ids = new Set(input.selected.map((r) => r.id));
  const byId = new Map<string, CheckResult[]>(input.selected.map((r) => [r.id, []]));
  const harnessErrors: HarnessError[] = [];
  for (const test of input.tests) {
    const result = test.result ?? orphanResult(test, ids, input);
    if (result === null) continue;
    if ('requirementId' in result) byId.get(result.requirementId)?.push(result);
    else harnessErrors.push(result);
  }
  const requirements = input.selected.map((r) => requirementResult(r, byId.get(r.id) ?? [], input));
  return { requirements, harnessErrors };
}

function requirementResult(r: Requirement, checks: CheckResult[], input: AssembleInput): RequirementResult {
  const absent = absentCapabilities(r, input.card);
  const verdict = foldVerdict({
    level: r.level,
    statuses: checks.map((c) => c.status),
    capabilityAbsent: absent.length > 0,
  });
  const result: RequirementResult = {
    ...ledgerFields(r),
    verdict,
    checks,
  };
  if (absent.length > 0) result.message = `capability absent from the agent card: ${absent.join(', ')}`;
  else if (checks.length === 0) result.message = input.budgetSpent ?? 'no check registered';
  return result;
}
