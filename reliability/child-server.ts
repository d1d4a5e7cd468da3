// Parent side of reliability/server-process.ts: spawns the reference server in a child Node process
// (with --expose-gc so heap figures are taken after a full collection), reads its base URL, asks it
// for memory and delivery figures, and reports an unexpected exit as a crash.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DeliveryRecord, ReferenceServerOptions } from '../reference-server/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = fileURLToPath(new URL('./server-process.ts', import.meta.url));

export interface MemoryFigures {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
  arrayBuffers: number;
}

export interface ChildStats {
  memory: MemoryFigures;
  deliveries: Record<string, number>;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the process ended before stop() asked it to. */
  crashed: boolean;
}

export interface ChildServer {
  baseUrl: string;
  pid: number;
  stats(): Promise<ChildStats>;
  deliveries(): Promise<DeliveryRecord[]>;
  /** Undefined while the process runs. */
  exit(): ExitInfo | undefined;
  /** The child's stderr so far (a crash leaves its stack here). */
  stderr(): string;
  stop(): Promise<ExitInfo>;
}

/** Starts the server with `options` (a `serve --config` object) and waits for its `ready` line. */
export async function startChildServer(options: ReferenceServerOptions): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-reliability-'));
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(options));
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', ENTRY, configPath], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    // Bounded: a crash loop must not grow the driver's memory without end.
    stderr = (stderr + chunk).slice(-64 * 1024);
  });
  let stopping = false;
  let exitInfo: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal, crashed: !stopping };
      rmSync(dir, { recursive: true, force: true });
      resolve(exitInfo);
    });
  });
  const lines = createLineReader(child, exited);
  const ready = await lines.next('ready');
  const call = async <T>(command: string): Promise<T> => {
    child.stdin?.write(`${command}\n`);
    return JSON.parse(await lines.next(command)) as T;
  };
  return {
    baseUrl: ready,
    pid: child.pid as number,
    stats: () => call<ChildStats>('stats'),
    deliveries: () => call<DeliveryRecord[]>('deliveries'),
    exit: () => exitInfo,
    stderr: () => stderr,
    async stop() {
      stopping = true;
      if (exitInfo !== undefined) return exitInfo;
      child.stdin?.end('exit\n');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const info = await exited;
      clearTimeout(timer);
      // Asked to stop: only a non-zero exit or a signal is a crash now.
      return { ...info, crashed: info.crashed || info.code !== 0 };
    },
  };
}

/** Replies come one per command, in order; a line is `<command> <payload>`. */
function createLineReader(child: ChildProcess, exited: Promise<ExitInfo>) {
  const pending: Array<{ command: string; resolve: (payload: string) => void; reject: (e: Error) => void }> =
    [];
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  reader.on('line', (line) => {
    const waiter = pending.shift();
    if (waiter === undefined) return;
    const space = line.indexOf(' ');
    const head = space < 0 ? line : line.slice(0, space);
    if (head !== waiter.command) return waiter.reject(new Error(`server process answered: ${line}`));
    waiter.resolve(line.slice(space + 1));
  });
  void exited.then((info) => {
    for (const waiter of pending.splice(0)) {
      waiter.reject(new Error(`server process exited (code ${info.code}, signal ${info.signal})`));
    }
  });
  return {
    next: (command: string) =>
      new Promise<string>((resolve, reject) => pending.push({ command, resolve, reject })),
  };
}
