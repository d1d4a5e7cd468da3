// Every a2a-conformance command the README and the guides show is run. Those the bundled reference
// server can answer (a run without --target, list, explain, a client with the example driver) run
// as a user runs them, as a child process; a run gets an --only slice when it has none (a whole
// certification is `npm run certify`'s test), and must end 0 with every report file written. A
// command that needs a remote agent, receiver or fleet is parsed by the CLI, its run options resolved
// as `run` resolves them (TLS files read and tried), with the variables it names supplied here.
// A synopsis (`[--scenario <name>]…`) names only commands and flags the CLI has.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'shell-quote';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILE_NAMES } from '../../core/report-files.ts';
import { buildProgram } from '../../harness/cli/program.ts';
import { flagLayer } from '../../harness/cli/run-command.ts';
import { readConfigFile, readEnv, resolveOptions } from '../../harness/options.ts';
import { makePki } from '../support/network-parts.ts';
import { examples, GUIDES, read, ROOT, type Example } from './markdown.ts';

const ALL = GUIDES.flatMap((file) => examples(file, read(file)));
const label = (e: Example): string => `${e.file}:${e.line} ${e.command}`;

/** What the shell variables of the examples hold here: a credential, a URL, a secret. */
const VARS: Record<string, string> = {
  A2A_API_KEY: 'docs-example-api-key',
  KEY: 'docs-example-api-key',
  URL: 'https://agents.example.com',
};

interface Words {
  env: Record<string, string>;
  args: string[];
}

/** The command's words as a shell reads them, after its variable assignments and `npx a2a-conformance`. */
function wordsOf(command: string): Words {
  const env: Record<string, string> = {};
  const words: string[] = [];
  for (const entry of parse(command, (name) => VARS[name] ?? `docs-${name.toLowerCase()}`)) {
    if (typeof entry === 'string') words.push(entry);
    else if ('pattern' in entry) words.push(entry.pattern);
    else break; // a comment or an operator ends the command
  }
  while (/^[A-Z][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  if (words[0] === 'npx') words.shift();
  if (words[0] === '--yes') words.shift();
  expect(words.shift(), 'the command').toBe('a2a-conformance');
  return { env, args: words };
}

const isSynopsis = (e: Example): boolean => /[[\]…<>]|\.\.\./.test(e.command);

function program(): Command {
  return buildProgram({ out: () => undefined, err: () => undefined, env: {} }, () => undefined);
}

/** The command a list of words names (`fleet run` is fleet's run), and the words after it. */
function commandOf(args: readonly string[]): { command: Command; rest: string[] } {
  let command = program();
  let i = 0;
  for (; i < args.length; i += 1) {
    const sub = command.commands.find((c) => c.name() === args[i]);
    if (sub === undefined) break;
    command = sub;
  }
  return { command, rest: args.slice(i) };
}

function runsHere(e: Example): boolean {
  if (isSynopsis(e)) return false;
  const { args } = wordsOf(e.command);
  if (args[0] === 'run') return !args.includes('--target');
  if (args[0] === 'list' || args[0] === 'explain') return true;
  // A client is run when its driver is a file of this repository (the example driver).
  if (args[0] === 'client') return args.slice(args.indexOf('--') + 2).some((a) => existsSync(join(ROOT, a)));
  return false;
}

let cwd = '';
const home = process.cwd();

beforeAll(() => {
  // The files the examples name, in a directory of their own: the TLS files (a real private CA, made
  // with openssl), a baseline, and the example driver of this repository.
  cwd = mkdtempSync(join(tmpdir(), 'a2a-docs-'));
  const pki = makePki();
  copyFileSync(pki.caCert, join(cwd, 'corp-ca.pem'));
  copyFileSync(pki.clientCert, join(cwd, 'client.pem'));
  copyFileSync(pki.clientKey, join(cwd, 'client-key.pem'));
  mkdirSync(join(cwd, '.github'));
  writeFileSync(join(cwd, '.github/a2a-baseline.json'), JSON.stringify({ expectedFailures: [] }));
  writeFileSync(join(cwd, 'a2a-fleet.json'), read('examples/fleet/a2a-fleet.json'));
  symlinkSync(join(ROOT, 'examples'), join(cwd, 'examples'));
  process.chdir(cwd);
});

afterAll(() => process.chdir(home));

describe('the examples of the README and the guides', () => {
  it('are found in the README and the guides that show commands', () => {
    const files = new Set(ALL.map((e) => e.file));
    for (const f of ['README.md', 'docs/certify.md', 'docs/networks.md', 'docs/ci.md', 'docs/fleets.md'])
      expect(files, f).toContain(f);
    expect(ALL.filter(runsHere).length).toBeGreaterThanOrEqual(4);
  });

  it.each(ALL.filter(isSynopsis).map((e) => [label(e), e] as const))(
    'synopsis %s names only what the CLI has',
    (_, e) => {
      const { command } = commandOf(wordsOf(e.command.replace(/[[\]]/g, ' ')).args);
      expect(command.parent, 'a command of the CLI').not.toBeNull();
      const flags = new Set([...command.options.map((o) => o.long), '--help']);
      for (const [flag] of e.command.matchAll(/(?<=\s|\[)--[a-z][a-z-]*/g))
        expect(flags.has(flag), `${command.name()} ${flag}`).toBe(true);
    },
  );

  it.each(ALL.filter((e) => !isSynopsis(e) && !runsHere(e)).map((e) => [label(e), e] as const))(
    'parses %s',
    async (_, e) => {
      const { env, args } = wordsOf(e.command);
      const cli = program();
      let parsed: string | undefined;
      const capture = (command: Command): void => {
        for (const sub of command.commands) {
          sub.action(() => {
            parsed = sub.name();
            if (sub.name() !== 'run' || sub.parent !== cli) return;
            // What `run` does with its flags before the first request (harness/cli/run-command.ts).
            const flags = sub.opts();
            const file = typeof flags.config === 'string' ? readConfigFile(flags.config) : {};
            resolveOptions({ flag: flagLayer(flags), env: readEnv(env), file }, env);
          });
          capture(sub);
        }
      };
      capture(cli);
      await cli.parseAsync(['node', 'a2a-conformance', ...args]);
      expect(parsed, 'a command ran').toBe(commandOf(args).command.name());
    },
  );

  it.concurrent.each(ALL.filter(runsHere).map((e) => [label(e), e] as const))(
    'runs %s against the bundled reference server',
    async (_, e) => {
      const { env, args } = wordsOf(e.command);
      if (args[0] === 'run' && !args.some((a) => a === '--only' || a.startsWith('--only=')))
        args.push('--only', '2.2/response-id-equals-request-id');
      const out = join(cwd, `out-${e.file.replace(/\W/g, '-')}-${e.line}`);
      const outAt = args.indexOf('--out');
      if (outAt >= 0) args[outAt + 1] = out;
      else if (args[0] === 'run' || args[0] === 'client') {
        // Before a client's `--`: what follows it is the driver's command line.
        const end = args.indexOf('--');
        args.splice(end < 0 ? args.length : end, 0, '--out', out);
      }
      const r = await cli(args, env);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout.trim()).not.toBe('');
      if (args[0] === 'run' || args[0] === 'client')
        for (const name of REPORT_FILE_NAMES) expect(existsSync(join(out, name)), name).toBe(true);
    },
    240_000,
  );
});

/** The CLI as a user runs it, in the examples' directory, with no A2A_* variable but the command's. */
function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('A2A_')));
  const child = spawn(process.execPath, [join(ROOT, 'bin/a2a-conformance.js'), ...args], {
    cwd,
    env: { ...clean, ...env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? 1, stdout, stderr })));
}
