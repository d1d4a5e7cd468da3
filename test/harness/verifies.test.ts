// verifies() binds a check to the ledger at registration: an unknown id or an empty title throws
// before any test is registered, so a typo can never become a silently unchecked requirement.
import { describe, expect, it } from 'vitest';
import { resolveCheckPlan, type SuiteFileDeclaration } from '../../harness/check/cost.ts';
import { runsConcurrently, suiteFile, verifies } from '../../harness/check/verifies.ts';

describe('verifies', () => {
  it('throws on an id that is not in the ledger', () => {
    expect(() => verifies('2.1/no-such-requirement', 'does something', () => undefined)).toThrow(
      /unknown requirement id '2\.1\/no-such-requirement'/,
    );
  });

  it('throws when its suite file declares nothing (no suiteFile() before it)', () => {
    expect(() => verifies('2.2/response-id-equals-request-id', 'a check', () => undefined)).toThrow(
      /declares nothing; call suiteFile\(/,
    );
  });

  it('suiteFile() refuses a declaration the planner cannot read', () => {
    expect(() => suiteFile({} as SuiteFileDeclaration)).toThrow(/a cost is required/);
    expect(() => suiteFile({ cost: { requests: 1, turns: 2 } })).toThrow(/more turns than requests/);
    expect(() => suiteFile({ cost: { requests: -1, turns: 0 } })).toThrow(/whole number/);
    expect(() => suiteFile({ cost: { requests: 1, turns: 0 }, runs: { when: 'last', why: ' ' } })).toThrow(
      /says why/,
    );
    expect(() => suiteFile({ cost: { requests: 1, turns: 0, waits: [{ spec: 5_000, why: '' }] } })).toThrow(
      /says what it waits for/,
    );
    // A file's samples are declared where each is made, never listed in suiteFile().
    expect(() => suiteFile({ cost: { requests: 1, turns: 0 }, samples: {} } as SuiteFileDeclaration)).toThrow(
      /each declares its own name and cost/,
    );
  });

  it('a check may read only samples its file declares', () => {
    const file = { cost: { requests: 1, turns: 0 }, samples: { task: { requests: 2, turns: 1 } } };
    expect(resolveCheckPlan(file, { samples: ['task'] }, false)).toMatchObject({
      cost: file.cost,
      samples: ['task'],
      needsIdleAgent: false,
    });
    expect(() => resolveCheckPlan(file, { samples: ['other'] }, false)).toThrow(/not one of its file's/);
    expect(resolveCheckPlan({ ...file, agent: 'alone' }, {}, false).needsIdleAgent).toBe(true);
    expect(resolveCheckPlan(file, {}, true).needsIdleAgent).toBe(true);
  });

  it('a check filed in another section carries its reason, and a reason is a sentence', () => {
    const file = { cost: { requests: 1, turns: 0 } };
    const reason = 'graded on the sample this file already makes';
    expect(resolveCheckPlan(file, { crossSection: reason }, false).crossSection).toBe(reason);
    expect(resolveCheckPlan(file, {}, false)).not.toHaveProperty('crossSection');
    expect(() => resolveCheckPlan(file, { crossSection: ' ' }, false)).toThrow(/crossSection says why/);
  });

  it('a check runs concurrently when it says so, else when its file does', () => {
    const plain = { cost: { requests: 1, turns: 0 } };
    const sideBySide = { ...plain, concurrent: true };
    expect(runsConcurrently(plain, {})).toBe(false);
    expect(runsConcurrently(plain, { concurrent: true })).toBe(true);
    expect(runsConcurrently(sideBySide, {})).toBe(true);
    expect(runsConcurrently(sideBySide, { concurrent: false })).toBe(false);
    expect(runsConcurrently(undefined, {})).toBe(false);
  });

  it('throws on an empty title', () => {
    expect(() => verifies('2.2/response-id-equals-request-id', '  ', () => undefined)).toThrow(
      /needs a title/,
    );
  });
});
