// A fleet run that is stopped (Ctrl-C, a CI cancel: SIGTERM or SIGINT) passes the signal on to the runs
// it started, which are detached process groups the signal does not reach: each keeps what it decided
// and writes its reports. The fleet exits 143 (130 for SIGINT) and leaves a shard.json that lists the
// agent it did not finish as not run, so the shard still merges.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Socket } from 'node:net';
import type { FleetShard } from '../../schemas/generated/types.ts';

const CLI = fileURLToPath(new URL('../../bin/a2a-conformance.js', import.meta.url));

/** PIDs of live processes whose command line mentions `text`. */
function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A target that never answers, counting the connections made to it. */
async function silentServer(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function until(test: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('fleet run stopped by a signal', () => {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('stops its runs, exits 143 and lists the unfinished agent as not run in shard.json', async () => {
    const silent = await silentServer();
    closers.push(silent.close);
    const dir = mkdtempSync(join(tmpdir(), 'a2a-fleet-stop-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const fleet = join(dir, 'a2a-fleet.json');
    const agents = [{ name: 'silent', target: silent.url, agentId: 'a', apiKeyEnv: 'FLEET_STOP_KEY' }];
    writeFileSync(
      fleet,
      JSON.stringify({ defaults: { only: ['7/method-not-found-code'], timeoutMs: 60_000 }, agents }),
    );
    const out = join(dir, 'out');
    const child = spawn(process.execPath, [CLI, 'fleet', 'run', '--fleet', fleet, '--out', out], {
      env: { ...process.env, FLEET_STOP_KEY: 'k'.repeat(32) },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const agentDir = join(out, 'silent');
    // The agent's run is probing the target: it has started, and hears signals.
    await until(() => silent.connections() > 0 && processesWith(agentDir).length > 0, 60_000);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    await until(() => processesWith(agentDir).length === 0, 5_000);
    const shard = JSON.parse(readFileSync(join(out, 'shard.json'), 'utf8')) as FleetShard;
    // The agent's run heard the signal during its probe: its reports say so, nothing was decided.
    expect(shard.agents[0]).toMatchObject({ name: 'silent', exitCode: 143, status: 'not-run' });
    expect(shard.agents[0]!.exitReason).toMatch(/interrupted \(SIGTERM\)/);
    expect(existsSync(join(agentDir, 'report.json'))).toBe(true);
    expect(shard.exitCode).toBe(143);
    expect(shard.exitReason).toMatch(/^interrupted \(SIGTERM\): 0 of 1 agent\(s\) certified/);
  }, 60_000);
});
