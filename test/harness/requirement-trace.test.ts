// What `explain` traces from a requirement: the reference-server map is honest (every file exists,
// every entry selects a service requirement, every service requirement has a file), and the mutants
// and legal variants that name an id are found in their files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { legalNames, referenceFilesOf, traceRequirement } from '../../harness/cli/requirement-trace.ts';
import { PROJECT_ROOT } from '../../harness/runner/paths.ts';
import { REQUIREMENTS_MAP } from '../../reference-server/requirements-map.ts';
import {
  getRequirement,
  requirementsOf,
  selectRequirements,
  type Requirement,
} from '../../requirements/index.ts';

const service = requirementsOf('service');

describe('reference-server/requirements-map.ts', () => {
  it('names only files that exist', () => {
    const missing = REQUIREMENTS_MAP.flatMap((e) => e.files).filter(
      (f) => !existsSync(join(PROJECT_ROOT, f)),
    );
    expect(missing).toEqual([]);
  });

  it('has no entry that selects no service requirement', () => {
    const dead = REQUIREMENTS_MAP.filter(
      (e) => !selectRequirements(e.select).some((r) => r.role === 'service'),
    ).map((e) => e.select);
    expect(dead).toEqual([]);
  });

  it('maps every section of the service, and every service requirement, to at least one file', async () => {
    const unmapped: string[] = [];
    for (const r of service) if ((await referenceFilesOf(r)).length === 0) unmapped.push(r.id);
    expect(unmapped).toEqual([]);
    const sections = new Set(service.map((r) => r.section));
    const mapped = new Set(
      REQUIREMENTS_MAP.flatMap((e) => selectRequirements(e.select).map((r) => r.section)),
    );
    expect([...sections].filter((s) => !mapped.has(s))).toEqual([]);
  });

  it('gives a requirement the files of every entry that selects it, each once', async () => {
    const files = await referenceFilesOf(getRequirement('8/rate-limit-enforced'));
    expect(files).toContain('reference-server/agents/config.ts'); // section 8
    expect(files).toContain('reference-server/http/rate-limit.ts'); // 8/rate-limit-*
    expect(new Set(files).size).toBe(files.length);
    expect(await referenceFilesOf(getRequirement('8/max-file-size'))).not.toContain(
      'reference-server/http/rate-limit.ts',
    );
  });
});

describe('traceRequirement', () => {
  it('finds the reference file, the mutant and the ruled legal variant of 4.4/cancel-completed-task-code', async () => {
    const t = await traceRequirement(getRequirement('4.4/cancel-completed-task-code'));
    expect(t.referenceFiles).toContain('reference-server/methods/tasks-cancel.ts');
    expect(t.mutants?.map((m) => `${m.name} ${m.file}`)).toEqual([
      '4-4-cancel-completed-task-code--answers-32002 mutants/variants/cancel.ts',
      '4-4-cancel-completed-task-code--replica-own-memory mutants/variants/replicas.ts',
    ]);
    expect(t.legal?.map((v) => v.name)).toContain('cancel-finished-task-answers-32000');
    expect(t.legal?.find((v) => v.name === 'cancel-finished-task-answers-32000')?.file).toBe(
      'mutants/legal/ruled-choices.ts',
    );
    expect(t.legalUnscoped).toBeGreaterThan(0);
  });

  it('lists no reference file for a receiver requirement', async () => {
    const receiver = requirementsOf('receiver')[0] as Requirement;
    expect((await traceRequirement(receiver)).referenceFiles).toEqual([]);
  });
});

describe('legalNames', () => {
  const r = (id: string): Requirement => getRequirement(id);

  it('names a requirement its --only scope selects', () => {
    expect(legalNames({ allowedBy: 'RFC 8259', only: ['4.4/*'] }, r('4.4/cancel-reason'))).toBe(true);
    expect(legalNames({ allowedBy: 'RFC 8259', only: ['4.4/*'] }, r('4.3/get-result-fields'))).toBe(false);
  });

  it('names a requirement whose ruling it cites, never a ruling that only shares a prefix', () => {
    const ruled = r('4.4/cancel-completed-task-code'); // C-06
    expect(legalNames({ allowedBy: 'spec 7 note 1, C-06' }, ruled)).toBe(true);
    expect(legalNames({ allowedBy: 'C-061' }, ruled)).toBe(false);
  });

  it('names a requirement whose section it cites after "spec", not a line or note number', () => {
    expect(legalNames({ allowedBy: 'spec 2.7 and 6.3 ("ISO 8601")' }, r('6.3/payload-timestamp'))).toBe(true);
    expect(legalNames({ allowedBy: 'spec 2.7, 2.12, 2.3 (ids)' }, r('2.12/set-config-id'))).toBe(true);
    expect(legalNames({ allowedBy: 'spec 2.7 and 6.3' }, r('6.1/events-filter'))).toBe(false);
    expect(legalNames({ allowedBy: 'spec 7 note 1 (line 347)' }, r('1/json-rpc-over-http'))).toBe(false);
  });
});
