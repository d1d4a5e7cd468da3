// A throwaway redis-server (Debian's `redis-server`) for the replica tests and `npm run field`'s
// shared-store conditions: listens on a free loopback port (redis cannot take port 0, so a port is
// found by binding and closing), keeps nothing on disk, and is stopped by its PID.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The one command that makes `redis-server` available on Debian (CI runs it when it is missing). */
export const REDIS_INSTALL_COMMAND = 'apt-get install -y redis-server';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>`: what `serve --store` takes. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!redisServerAvailable()) {
    throw new Error(`redis-server is not installed; install it with: ${REDIS_INSTALL_COMMAND}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'a2a-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
  });
  await ready;
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.resume();
  let stopping: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null)
          process.kill(child.pid as number, 'SIGTERM');
        await exited(child);
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
