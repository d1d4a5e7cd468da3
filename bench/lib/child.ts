// Starts a benchmark server (or receiver) in its own Node process, so the load generator and the
// server never share an event loop or a core; reads its address from the first stdout line.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface Child<Info> {
  info: Info;
  pid: number;
  process: ChildProcess;
  /** Sends one IPC request and resolves with the child's answer (see servers/ipc.ts). */
  ask<T>(message: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export interface ChildOptions {
  args?: string[];
  /** Extra Node flags (e.g. --expose-gc, --cpu-prof). */
  nodeFlags?: string[];
  env?: Record<string, string>;
  /** How long the child may take to print its ready line (tsx compiles on start). */
  readyTimeoutMs?: number;
}

const SERVERS_DIR = new URL('../servers/', import.meta.url);

/** Spawns `bench/servers/<name>.ts` under tsx and waits for its JSON ready line on stdout. */
export async function startChild<Info>(name: string, opts: ChildOptions = {}): Promise<Child<Info>> {
  const file = fileURLToPath(new URL(`${name}.ts`, SERVERS_DIR));
  const child = spawn(
    process.execPath,
    [...(opts.nodeFlags ?? []), '--import', 'tsx', file, ...(opts.args ?? [])],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: { ...process.env, ...opts.env },
    },
  );
  const info = await readyLine<Info>(child, name, opts.readyTimeoutMs ?? 60_000);
  let seq = 0;
  const ask = <T>(message: Record<string, unknown>): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      const onMessage = (reply: { id?: number; result?: T; error?: string }): void => {
        if (reply.id !== id) return;
        child.off('message', onMessage);
        if (reply.error !== undefined) reject(new Error(`${name}: ${reply.error}`));
        else resolve(reply.result as T);
      };
      child.on('message', onMessage);
      child.send({ ...message, id });
    });
  return { info, pid: child.pid as number, process: child, ask, stop: () => stopChild(child) };
}

function readyLine<Info>(child: ChildProcess, name: string, timeoutMs: number): Promise<Info> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(
      () => fail(new Error(`${name}: no ready line within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`${name} exited (${String(code)}) before it was ready`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      try {
        resolve(JSON.parse(line) as Info);
      } catch {
        fail(new Error(`${name}: unexpected first line ${line}`));
      }
    });
  });
}

/** SIGTERM to this child's PID only; SIGKILL if it has not exited after 10 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
