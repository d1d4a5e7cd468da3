// A shared sample declares its own name and cost (harness/check/verifies.ts declareSample, through
// suites/support/samples.ts sharedSample); its suite file's declaration gathers them as the file
// loads, and a check may name only a sample its file declared above it.
import { describe, expect, it } from 'vitest';
import { declareSample, suiteFile, verifies } from '../../harness/check/index.ts';
import { sharedSample } from '../../suites/support/samples.ts';

/** What `declare` throws as this file loads; undefined when it does not. */
function thrown(declare: () => unknown): unknown {
  try {
    declare();
    return undefined;
  } catch (e) {
    return e;
  }
}

// Before suiteFile(), as a sample of a module the file imports registers.
const imported = declareSample('a sample of an imported module', { requests: 1, turns: 0 });
suiteFile({ cost: { requests: 0, turns: 0 } });
const made = sharedSample('a finished task', { requests: 2, turns: 1 }, () => Promise.resolve('t'));
const twice = thrown(() => declareSample('a finished task', { requests: 2, turns: 1 }));
const badCost = thrown(() => declareSample('a sample with more turns', { requests: 1, turns: 2 }));
const misspelt = thrown(() =>
  verifies('2.2/response-id-equals-request-id', 'reads a misspelt sample', () => undefined, {
    samples: ['a finished task, misspelt'],
  }),
);

describe('declareSample', () => {
  it("gathers each sample's name and cost into its file's declaration, before suiteFile() or after", ({
    task,
  }) => {
    expect(imported).toBe('a sample of an imported module');
    expect(typeof made).toBe('function');
    expect(task.file.meta.a2aFile?.samples).toEqual({
      'a sample of an imported module': { requests: 1, turns: 0 },
      'a finished task': { requests: 2, turns: 1 },
    });
  });

  it('throws on a name its file declares twice, and on a cost the planner cannot read', () => {
    expect(twice).toBeInstanceOf(Error);
    expect((twice as Error).message).toContain("sample 'a finished task' in ");
    expect((twice as Error).message).toContain('declares a sample of that name twice');
    expect(badCost).toBeInstanceOf(Error);
    expect((badCost as Error).message).toContain("sample 'a sample with more turns' cost: more turns");
  });

  it('a check naming a sample its file does not declare throws, naming those it does', () => {
    expect(misspelt).toBeInstanceOf(Error);
    expect((misspelt as Error).message).toContain(
      "sample 'a finished task, misspelt' is not one of its file's",
    );
    expect((misspelt as Error).message).toContain(
      "it declares 'a sample of an imported module', 'a finished task'",
    );
  });
});
