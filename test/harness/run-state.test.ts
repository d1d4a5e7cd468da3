// The run's settings (frozen, built once from the options) and its state (what the runner decides),
// joined into the run the workers are handed in one place (harness/runner/run-settings.ts, run-state.ts).
import { describe, expect, it } from 'vitest';
import { resolveOptions, tableValues } from '../../harness/options.ts';
import type { ProvidedRun } from '../../harness/provided.ts';
import { runSettings } from '../../harness/runner/run-settings.ts';
import { RunState } from '../../harness/runner/run-state.ts';

const target = { target: 'http://127.0.0.1:9', agentId: 'a', apiKey: 'k' };

function state(flag: Record<string, unknown> = {}): RunState {
  const opts = resolveOptions({ flag: { ...target, ...flag }, env: {}, file: {} });
  return new RunState(runSettings(opts, undefined), { card: null, field: { pace: opts.rate ?? null } });
}

describe('run settings', () => {
  it('are frozen, deep: nothing the user asked changes during the run', () => {
    const s = state({ maxWait: '6m' }).settings;
    expect(Object.isFrozen(s) && Object.isFrozen(s.field) && Object.isFrozen(s.auth)).toBe(true);
    expect(() => ((s.field as { maxWaitMs: number }).maxWaitMs = 1)).toThrow(TypeError);
  });

  it("hold the option table's field rows by their resolved names", () => {
    const { field } = state({ maxWait: '6m', maxTurns: '50', concurrency: '4' }).settings;
    expect(field).toEqual({
      profile: 'standard',
      concurrency: 4,
      maxTurns: 50,
      maxWaitMs: 360_000,
      replicas: null,
    });
    expect(state().settings.field).toEqual({
      profile: 'standard',
      concurrency: 32,
      maxTurns: null,
      maxWaitMs: null,
      replicas: null,
    });
  });

  it('are parsed by the table: a wrong value names its option', () => {
    expect(() => tableValues({ maxWait: 'soon' })).toThrow(/maxWait must be a duration/);
    expect(() => tableValues({ maxTurns: '0' })).toThrow(/maxTurns must be an integer >= 1/);
  });
});

describe('run state', () => {
  it('joins the settings and every decision, and hands each new run to its provider', () => {
    const s = state({ maxWait: '6m' });
    const provided: ProvidedRun[] = [];
    s.provideTo((run) => provided.push(run));
    s.decide({ field: { deadlineAt: 1_000, suiteWorkers: 3 } });
    s.decide({
      webhookLink: 'http://127.0.0.1:1/link',
      field: { breadth: { phase: 'coverage', cases: {} } },
    });
    expect(provided).toHaveLength(3);
    const last = provided[2]!;
    expect(last.field).toMatchObject({ maxWaitMs: 360_000, deadlineAt: 1_000, suiteWorkers: 3, pace: null });
    expect(last.webhookLink).toBe('http://127.0.0.1:1/link');
    expect(last.baseUrl).toBe('http://127.0.0.1:9');
    // An earlier run handed out does not change afterwards.
    expect(provided[0]!.field.deadlineAt).toBeUndefined();
  });

  it('takes a decision back when it is given as undefined, and the run it hands out is frozen', () => {
    const s = state();
    s.decide({ field: { breadth: { phase: 'breadth', cases: { 'x y': 3 } } } });
    s.decide({ field: { breadth: undefined } });
    expect('breadth' in s.run.field).toBe(false);
    expect(Object.isFrozen(s.run) && Object.isFrozen(s.run.field)).toBe(true);
  });

  it('hands nothing once its provider is unbound', () => {
    const s = state();
    const provided: ProvidedRun[] = [];
    s.provideTo((run) => provided.push(run));
    s.provideTo(undefined);
    s.decide({ field: { suiteWorkers: 2 } });
    expect(provided).toHaveLength(1);
    expect(s.run.field.suiteWorkers).toBe(2);
  });
});
