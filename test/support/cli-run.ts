// The CLI run in process for tests (harness/cli/program.ts main(), no tsx start-up per case): argv as
// a user types it after `a2a-conformance`, what it wrote to stdout and stderr, and its exit code.
import { main } from '../../harness/cli/program.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in the order they were written. */
  output: string;
}

export interface CliRunOptions {
  /** The environment the CLI reads (A2A_* variables, key variables); nothing of the test's own. */
  env?: NodeJS.ProcessEnv;
  /** stdout is a terminal (the console reporter then colours its output). */
  isTTY?: boolean;
}

/** `a2a-conformance <args>` in this process. */
export async function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const ran = { stdout: '', stderr: '', output: '' };
  const io = {
    out: (text: string) => void ((ran.stdout += text), (ran.output += text)),
    err: (text: string) => void ((ran.stderr += text), (ran.output += text)),
    env: options.env ?? {},
    ...(options.isTTY === undefined ? {} : { isTTY: options.isTTY }),
  };
  const code = await main(['node', 'a2a-conformance', ...args], io);
  return { code, ...ran };
}

/** The argv of `run` against one agent (its base URL, agent id and API key), then `more`. */
export function runArgv(target: string, agentId: string, apiKey: string, ...more: string[]): string[] {
  return ['run', '--target', target, '--agent-id', agentId, '--api-key', apiKey, ...more];
}
