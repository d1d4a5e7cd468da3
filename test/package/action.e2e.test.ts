// action.yml, the composite GitHub Action: the YAML parses, every input is a documented option of
// `run` handed over as its A2A_* variable, the outputs come from the certify step, and that step's
// script, run as GitHub runs it (bash -eo pipefail), writes exit-code, compliance-level and score to
// GITHUB_OUTPUT, appends summary.md to GITHUB_STEP_SUMMARY and exits with the CLI's code.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildProgram } from '../../harness/cli/program.ts';
import { ENV_VARS } from '../../harness/options.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The option reference (generated from harness/option-table.ts), where each input is named. */
const OPTIONS_DOC = readFileSync(join(ROOT, 'docs/options.md'), 'utf8');

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}
interface Action {
  name: string;
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const certify = action.runs.steps.find((s) => s.id === 'certify')!;
/** Inputs of the action itself, not of the CLI. */
const ACTION_ONLY = ['node-version'];
const ISSUE_INPUTS = [
  'target',
  'agent-id',
  'api-key',
  'bearer',
  'level',
  'profile',
  'only',
  'baseline',
  'out',
  'webhook-listen',
  'webhook-public-url',
];

const camel = (kebab: string): string => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The options of `run` as its --help documents them: flag -> description. */
function runOptions(): Map<string, string> {
  const program = buildProgram({ out: () => undefined, err: () => undefined, env: {} }, () => undefined);
  const run = program.commands.find((c) => c.name() === 'run')!;
  return new Map(run.options.map((o) => [o.long!, o.description]));
}

describe('action.yml', () => {
  it('is a composite action with the documented inputs and outputs', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(ISSUE_INPUTS));
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value).toBe(`\${{ steps.certify.outputs.${name} }}`);
    }
    expect(Object.keys(action.outputs).sort()).toEqual(['compliance-level', 'exit-code', 'score']);
    expect(README).toMatch(/uses: [\w.-]+\/a2a-conformance@/);
  });

  it('hands every input to the CLI as the A2A_* variable of the run option of the same name', () => {
    const options = runOptions();
    const env = certify.env!;
    for (const name of Object.keys(action.inputs).filter((n) => !ACTION_ONLY.includes(n))) {
      const key = camel(name) as keyof typeof ENV_VARS;
      expect(ENV_VARS[key], `input ${name}`).toBeDefined();
      expect(env[ENV_VARS[key]], `input ${name}`).toBe(`\${{ inputs.${name} }}`);
      expect(options.get(`--${name}`), `input ${name} in run --help`).toMatch(
        new RegExp(`env ${ENV_VARS[key]}`),
      );
      expect(OPTIONS_DOC, `input ${name} in docs/options.md`).toContain(`\`${name}\``);
    }
    // Nothing else reaches the CLI's environment.
    expect(Object.keys(env).length).toBe(Object.keys(action.inputs).length - ACTION_ONLY.length);
  });
});

interface StepRun {
  code: number;
  outputs: Record<string, string>;
  summary: string;
  stderr: string;
}

/** Runs the certify step's script as GitHub does, with the given inputs and files for its outputs. */
function runCertifyStep(inputs: Record<string, string>): Promise<StepRun> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-action-'));
  const script = join(dir, 'step.sh');
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'summary');
  writeFileSync(script, certify.run!);
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '# earlier step\n');
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('A2A_')),
  );
  for (const [variable, expression] of Object.entries(certify.env!)) {
    const name = /inputs\.([\w-]+)/.exec(expression)![1]!;
    env[variable] = inputs[name] ?? action.inputs[name]!.default ?? '';
  }
  Object.assign(env, {
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    NO_COLOR: '1',
  });
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', script],
      { cwd: dir, env, timeout: 180_000 },
      (err, _stdout, stderr) => {
        const outputs = Object.fromEntries(
          readFileSync(outputFile, 'utf8')
            .split('\n')
            .filter((l) => l.includes('='))
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
        resolve({ code, outputs, summary: readFileSync(summaryFile, 'utf8'), stderr });
      },
    );
  });
}

describe('the certify step', () => {
  it('certifies, sets the outputs from report.json and appends summary.md to the job summary', async () => {
    const r = await runCertifyStep({ only: '1/*', out: 'reports' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toEqual({ 'exit-code': '0', 'compliance-level': 'must-compliant', score: '100' });
    expect(r.summary.startsWith('# earlier step\n')).toBe(true);
    expect(r.summary).toMatch(/MUST-compliant/);
  }, 200_000);

  it('exits with the CLI code and empty level and score when the run could not be done', async () => {
    const r = await runCertifyStep({ level: 'sometimes' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/level must be one of must, should, all/);
    expect(r.outputs).toEqual({ 'exit-code': '2', 'compliance-level': '', score: '' });
    expect(r.summary).toBe('# earlier step\n');
  });
});
