// A shared sample's name (suites/support/samples.ts) must be one its suite file declares a cost
// for in suiteFile({ samples }) (harness/check/verifies.ts declaredSample): checked as the file loads.
import { describe, expect, it } from 'vitest';
import { suiteFile } from '../../harness/check/index.ts';
import { sharedSample } from '../../suites/support/samples.ts';

suiteFile({ cost: { requests: 0, turns: 0 }, samples: { 'a finished task': { requests: 2, turns: 1 } } });

/** What registering a sample under `name` throws as this file loads; undefined when it registers. */
function registering(name: string): unknown {
  try {
    sharedSample(name, () => Promise.resolve(name));
    return undefined;
  } catch (e) {
    return e;
  }
}
const declared = registering('a finished task');
const undeclared = registering('a finished task, misspelt');

describe('sharedSample', () => {
  it('registers under a name its file declares', () => {
    expect(declared).toBeUndefined();
  });

  it('throws, naming the declared samples, under a name its file does not declare', () => {
    expect(undeclared).toBeInstanceOf(Error);
    expect((undeclared as Error).message).toContain("sharedSample('a finished task, misspelt')");
    expect((undeclared as Error).message).toContain("it declares 'a finished task'");
  });
});
