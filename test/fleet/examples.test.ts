// examples/fleet/: the GitHub Actions workflow and the Kubernetes manifest parse as YAML, and every
// a2a-conformance invocation in their scripts names a command and flags the CLI has (read from the
// commander program itself), with as many shards as the matrix or the Indexed Job runs; the example
// fleet file is valid and its credential variables are the ones the workflow provides.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadFleet } from '../../harness/fleet/fleet-file.ts';
import { buildProgram } from '../../harness/cli/program.ts';

const DIR = new URL('../../examples/fleet/', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, DIR), 'utf8');

interface Invocation {
  command: string[];
  flags: Map<string, string | undefined>;
}

/** Each `a2a-conformance ...` line of a shell script; `$var` expanded from `var="..."` in the script. */
function invocations(script: string): Invocation[] {
  const vars = new Map([...script.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  return script
    .split('\n')
    .filter((line) => line.includes('a2a-conformance '))
    .map((line) => {
      const tail = line
        .slice(line.indexOf('a2a-conformance ') + 'a2a-conformance '.length)
        .replace(/\$\{\{[^}]*\}\}/g, 'X')
        .replace(/\$(\w+)/g, (all, name: string) => vars.get(name) ?? all);
      const command = tail.split(/\s(?:\|\||&&|;)\s/)[0]!;
      const tokens = command.split(/\s+/).filter((t) => t !== '');
      const words: string[] = [];
      while (tokens[0] !== undefined && !tokens[0].startsWith('-')) words.push(tokens.shift()!);
      const flags = new Map<string, string | undefined>();
      while (tokens.length > 0) {
        const flag = tokens.shift()!;
        const value = tokens[0]?.startsWith('-') === false ? tokens.shift() : undefined;
        flags.set(flag, value?.replace(/^"|"$/g, ''));
      }
      // Subcommand names, not the shard directories given to merge.
      return { command: words.filter((w) => /^[a-z]+$/.test(w)), flags };
    });
}

function subcommand(path: string[]): Command | undefined {
  let cmd: Command | undefined = buildProgram(
    { out: () => undefined, err: () => undefined, env: {} },
    () => undefined,
  );
  for (const name of path) cmd = cmd?.commands.find((c) => c.name() === name);
  return cmd;
}

function expectDocumented(inv: Invocation): void {
  const cmd = subcommand(inv.command);
  expect(cmd, `a2a-conformance ${inv.command.join(' ')}`).toBeDefined();
  const known = new Set(cmd!.options.map((o) => o.long));
  for (const flag of inv.flags.keys()) expect(known, `${inv.command.join(' ')} ${flag}`).toContain(flag);
  for (const o of cmd!.options.filter((o) => o.mandatory)) expect([...inv.flags.keys()]).toContain(o.long);
}

describe('examples/fleet/github-actions.yml', () => {
  const workflow = parse(read('github-actions.yml')) as {
    jobs: Record<
      string,
      {
        steps: Array<{ run?: string; env?: Record<string, string> }>;
        strategy?: { matrix: { shard: number[] } };
      }
    >;
  };
  const scripts = Object.values(workflow.jobs).flatMap((j) => j.steps.map((s) => s.run ?? ''));
  const calls = scripts.flatMap(invocations);

  it('parses, with a matrix of shards and a merge job that needs them', () => {
    expect(workflow.jobs.certify!.strategy!.matrix.shard).toEqual([1, 2, 3, 4]);
    expect(Object.keys(workflow.jobs)).toEqual(['certify', 'merge']);
    expect(calls.map((c) => c.command.join(' '))).toEqual(['fleet run', 'fleet merge']);
  });

  it('uses only commands and flags the CLI has, with every required flag', () => {
    for (const inv of calls) expectDocumented(inv);
    expect(calls[0]!.flags.get('--shard')).toBe('X/4');
    expect(calls[1]!.flags.has('--previous')).toBe(true);
  });

  it('provides the credential variable of every agent of the example fleet file', () => {
    const fleet = loadFleet(new URL('a2a-fleet.json', DIR).pathname);
    const env = workflow.jobs.certify!.steps.find((s) => s.env !== undefined)!.env!;
    const wanted = fleet.agents.flatMap((a) => [a.apiKeyEnv, a.bearerEnv]).filter((v) => v !== undefined);
    expect(Object.keys(env).sort()).toEqual([...wanted].sort());
  });
});

describe('examples/fleet/kubernetes-indexed-job.yaml', () => {
  const docs = parseAllDocuments(read('kubernetes-indexed-job.yaml'));
  interface K8sObject {
    kind: string;
    metadata: { name: string };
    spec: { template: { spec: { containers: Array<{ args: string[] }> } } } & Record<string, unknown>;
  }
  const objects = docs.map((d) => d.toJS() as K8sObject);

  it('parses into a volume, an Indexed Job of 4 shards and a merge Job', () => {
    expect(docs.flatMap((d) => d.errors)).toEqual([]);
    expect(objects.map((o) => `${o.kind} ${o.metadata.name}`)).toEqual([
      'PersistentVolumeClaim a2a-fleet-reports',
      'Job a2a-fleet-certify',
      'Job a2a-fleet-merge',
    ]);
    expect(objects[1]!.spec).toMatchObject({ completionMode: 'Indexed', completions: 4 });
  });

  it('derives the 1-based shard from JOB_COMPLETION_INDEX and uses only the documented CLI', () => {
    const script = (o: K8sObject): string => o.spec.template.spec.containers[0]!.args.join('\n');
    expect(script(objects[1]!)).toContain('shard=$((JOB_COMPLETION_INDEX + 1))');
    const calls = [objects[1]!, objects[2]!].flatMap((o) => invocations(script(o)));
    expect(calls.map((c) => c.command.join(' '))).toEqual(['fleet run', 'fleet merge']);
    for (const inv of calls) expectDocumented(inv);
    expect(calls[0]!.flags.get('--shard')).toBe('$shard/4');
  });
});
