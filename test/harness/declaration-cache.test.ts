// The collected declarations are reused only while every suite file and the modules that resolve a
// declaration are byte for byte the same: an edit, a rename or a new file collects afresh.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  declarationsKey,
  readDeclarations,
  writeDeclarations,
} from '../../harness/runner/declaration-cache.ts';

const root = mkdtempSync(join(tmpdir(), 'declarations-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(): void {
  mkdirSync(join(root, 'suites', 'a'), { recursive: true });
  mkdirSync(join(root, 'harness', 'check'), { recursive: true });
  writeFileSync(
    join(root, 'suites', 'a', 'one.test.ts'),
    'suiteFile({ cost: { requests: 1, turns: 0 } });\n',
  );
  writeFileSync(join(root, 'harness', 'check', 'cost.ts'), '// cost\n');
  writeFileSync(join(root, 'harness', 'check', 'verifies.ts'), '// verifies\n');
}

describe('the declaration cache', () => {
  it('keys on the content and names of the suites and on the file selection', () => {
    tree();
    const key = declarationsKey(root, undefined)!;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(declarationsKey(root, undefined)).toBe(key);
    expect(declarationsKey(root, ['suites/a/one.test.ts'])).not.toBe(key);
    writeFileSync(
      join(root, 'suites', 'a', 'one.test.ts'),
      'suiteFile({ cost: { requests: 2, turns: 0 } });\n',
    );
    const edited = declarationsKey(root, undefined)!;
    expect(edited).not.toBe(key);
    renameSync(join(root, 'suites', 'a', 'one.test.ts'), join(root, 'suites', 'a', 'two.test.ts'));
    expect(declarationsKey(root, undefined)).not.toBe(edited);
    writeFileSync(join(root, 'harness', 'check', 'verifies.ts'), '// changed\n');
    expect(declarationsKey(root, undefined)).not.toBe(edited);
    expect(declarationsKey(join(root, 'missing'), undefined)).toBeUndefined();
  });

  it('returns what was kept, and keeps no collection with load errors', () => {
    const key = `test-${process.pid}-${Date.now()}`;
    const checks = [{ requirementId: '1/a', title: 't', file: 'suites/a/one.test.ts' }];
    expect(readDeclarations(key)).toBeUndefined();
    writeDeclarations(key, { checks, errors: [{ message: 'boom' }] });
    expect(readDeclarations(key)).toBeUndefined();
    writeDeclarations(key, { checks, errors: [] });
    expect(readDeclarations(key)).toEqual({ checks, errors: [] });
    expect(readDeclarations(undefined)).toBeUndefined();
  });
});
