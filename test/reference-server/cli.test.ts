// `serve` (reference-server/cli.ts via main.ts): stdout lines, environment variables, config files,
// invalid configuration exit code, and a clean exit on SIGTERM. Spawned as real processes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = new URL('../../reference-server/main.ts', import.meta.url).pathname;
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function serve(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('A2A_')));
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: { ...clean, ...env } });
  children.push(child);
  return child;
}

function firstLines(child: ChildProcessWithoutNullStreams, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout });
    reader.on('line', (line) => {
      lines.push(line);
      if (lines.length === count) {
        reader.close();
        resolve(lines);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} after ${JSON.stringify(lines)}`)));
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

async function card(baseUrl: string, agentId: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/a2a/${agentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent/authenticatedExtendedCard' }),
  });
  return response.status;
}

describe('serve command', () => {
  it('prints the base URL, agent and generated api-key, serves them, and exits 0 on SIGTERM', async () => {
    const child = serve([]);
    const [baseUrl, agentLine, keyLine] = await firstLines(child, 3);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(agentLine).toBe('agent reference-agent');
    expect(keyLine).toMatch(/^api-key [A-Za-z0-9_-]{43}$/);
    const key = keyLine!.slice('api-key '.length);
    expect(await card(baseUrl!, 'reference-agent', { 'x-api-key': key })).toBe(200);
    expect(await card(baseUrl!, 'reference-agent', { authorization: `Bearer ${key}` })).toBe(200);
    expect(await card(baseUrl!, 'reference-agent', { 'x-api-key': 'wrong' })).toBe(401);
    const exit = exitOf(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('reads A2A_* environment variables, flags winning over them', async () => {
    const child = serve(['--agent-id', 'from-flag'], {
      A2A_AGENT_ID: 'from-env',
      A2A_API_KEY: 'env-key',
      A2A_HOST: '127.0.0.1',
    });
    const [baseUrl, agentLine, keyLine] = await firstLines(child, 3);
    expect(agentLine).toBe('agent from-flag');
    expect(keyLine).toBe('api-key env-key');
    expect(await card(baseUrl!, 'from-flag', { 'x-api-key': 'env-key' })).toBe(200);
  });

  it('hosts the agents of a config file, the selected one first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-serve-'));
    const path = join(dir, 'config.json');
    writeFileSync(
      path,
      JSON.stringify({
        agents: [
          { id: 'one', apiKeys: ['k1'] },
          { id: 'two', apiKeys: ['k2'] },
        ],
      }),
    );
    const child = serve(['--config', path], { A2A_AGENT_ID: 'two' });
    const lines = await firstLines(child, 5);
    expect(lines.slice(1)).toEqual(['agent two', 'api-key k2', 'agent one', 'api-key k1']);
    expect(await card(lines[0]!, 'one', { 'x-api-key': 'k1' })).toBe(200);
  });

  it('exits 2 with the problems on stderr for an invalid configuration', async () => {
    const child = serve(['--port', 'abc']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitOf(child)).toBe(2);
    expect(stderr).toContain('port: must be an integer from 0 to 65535 (got "abc")');
  });
});
