// `a2a-conformance receiver` proven both ways: the example receiver (examples/receiver/) and a
// correct in-process receiver pass every receiver requirement; each broken receiver of
// broken-receivers.ts fails (or, for a SHOULD, warns on) exactly the requirement it is named for.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createHmac } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../harness/cli/program.ts';
import { RECEIVER_CHECKS } from '../../harness/receiver/receiver-checks.ts';
import { runReceiver } from '../../harness/index.ts';
import type { RunResult, Verdict } from '../../core/types.ts';
import { getRequirement, requirementsOf } from '../../requirements/index.ts';
import { validate } from '../../schemas/registry.ts';
import { REPORT_FILE_NAMES } from '../support/report-files.ts';
import {
  BROKEN_RECEIVERS,
  correct,
  LEGAL_RECEIVERS,
  receiverName,
  serveReceiver,
} from './broken-receivers.ts';

const SECRET = 'receiver-test-secret-0123456789';
const EXAMPLE = new URL('../../examples/receiver/receiver.mjs', import.meta.url).pathname;

const verdicts = (r: RunResult): Record<string, Verdict> =>
  Object.fromEntries(r.requirements.map((q) => [q.id, q.verdict]));

// Generous for a loopback answer on a loaded machine; a hung delivery costs it in full.
async function certify(handler: Parameters<typeof serveReceiver>[0], timeoutMs = 5000): Promise<RunResult> {
  const receiver = await serveReceiver(handler, SECRET);
  try {
    return await runReceiver({ url: receiver.url, secret: SECRET, out: null, timeoutMs });
  } finally {
    await receiver.close();
  }
}

describe('receiver requirements and their checks', () => {
  it('checks every MUST and SHOULD receiver requirement, and binds every check to one', () => {
    const checked = new Set([
      ...RECEIVER_CHECKS.map((c) => c.requirementId),
      '6.5/receiver-answers-within-5s',
      '8/receiver-response-time',
    ]);
    expect(requirementsOf('receiver').filter((r) => !checked.has(r.id))).toEqual([]);
    expect(RECEIVER_CHECKS.filter((c) => getRequirement(c.requirementId).role !== 'receiver')).toEqual([]);
  });
});

describe('a correct receiver', () => {
  it('passes every receiver requirement', async () => {
    const result = await certify(correct);
    expect(result.role).toBe('receiver');
    expect(result.requirements.every((r) => r.role === 'receiver')).toBe(true);
    expect(Object.entries(verdicts(result)).filter(([, v]) => v !== 'pass')).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('without --secret: the signature requirements are not-applicable, the rest pass', async () => {
    const receiver = await serveReceiver((d) => ({ status: d.body.length > 0 ? 204 : 400 }), SECRET);
    try {
      const result = await runReceiver({ url: receiver.url, out: null, timeoutMs: 5000 });
      const v = verdicts(result);
      expect(v['6.4/receiver-rejects-missing-signature']).toBe('not-applicable');
      expect(v['6.4/receiver-rejects-tampered-body']).toBe('not-applicable');
      expect(v['6.5/receiver-acknowledges-events']).toBe('pass');
      expect(result.exitCode).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it('writes the seven report files of run; report.json is valid and names the role', async () => {
    const receiver = await serveReceiver(correct, SECRET);
    const out = mkdtempSync(join(tmpdir(), 'a2a-receiver-'));
    try {
      await runReceiver({ url: receiver.url, secret: SECRET, out, timeoutMs: 5000 });
      expect(readdirSync(out).sort()).toEqual(REPORT_FILE_NAMES);
      const text = readFileSync(join(out, 'report.json'), 'utf8');
      const report = JSON.parse(text) as { role: string; requirements: Array<{ role: string }> };
      expect(validate('report', report)).toEqual({ valid: true });
      expect(report.role).toBe('receiver');
      expect(new Set(report.requirements.map((r) => r.role))).toEqual(new Set(['receiver']));
      expect(text).not.toContain(SECRET);
    } finally {
      rmSync(out, { recursive: true, force: true });
      await receiver.close();
    }
  });

  it('sends each --header with every delivery and keeps its value out of the result', async () => {
    const seen: unknown[] = [];
    const receiver = await serveReceiver(
      (d, state) => (seen.push(d.headers['x-tenant']), correct(d, state)),
      SECRET,
    );
    try {
      const value = 'tenant-token-9f8e7d6c5b4a';
      const result = await runReceiver({
        url: receiver.url,
        secret: SECRET,
        headers: { 'x-tenant': value },
        out: null,
      });
      expect(result.exitCode).toBe(0);
      expect(seen.length).toBeGreaterThan(10);
      expect(new Set(seen)).toEqual(new Set([value]));
      expect(JSON.stringify(result)).not.toContain(value);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver that trickles its status line never holds the run: each delivery ends at its deadline', async () => {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      const line = 'HTTP/1.1 200 OK\r\n';
      let i = 0;
      const timer = setInterval(() => (i < line.length ? socket.write(line[i++]!) : socket.write('X')), 100);
      socket.on('close', () => clearInterval(timer));
      socket.on('error', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = Date.now();
    try {
      const result = await runReceiver({
        url: `http://127.0.0.1:${port}/hooks`,
        secret: SECRET,
        only: ['6.5/receiver-acknowledges-events'],
        timeoutMs: 500,
        out: null,
      });
      expect(result.requirements.map((r) => r.verdict)).toEqual(['fail']);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });

  it('reads answers in any content coding: decoded when it can, graded by status either way', async () => {
    // The deliveries advertise no Accept-Encoding, so any coding is the receiver's right (RFC 9110 12.5.3).
    const codings = ['gzip', 'zstd'];
    for (const coding of codings) {
      const server = createHttpServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const body = Buffer.from('{"received":true}');
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
          res.end(coding === 'gzip' ? gzipSync(body) : body);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        const result = await runReceiver({
          url: `http://127.0.0.1:${port}/hooks`,
          only: ['6.5/receiver-acknowledges-events'],
          out: null,
          timeoutMs: 5000,
        });
        expect(
          result.requirements.map((r) => r.verdict),
          coding,
        ).toEqual(['pass']);
        const ex = result.requirements[0]!.checks[0]!.evidence.exchanges[0]!;
        expect(ex.request.headers['accept-encoding']).toBeUndefined();
        if (coding === 'gzip') expect(ex.response?.json).toEqual({ received: true });
        else
          expect(ex.error?.message).toMatch(
            /Content-Encoding zstd, which the harness does not decode .*the request sent no Accept-Encoding/,
          );
      } finally {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  it('an unreachable receiver exits 2 and passes nothing', async () => {
    const receiver = await serveReceiver(correct, SECRET);
    await receiver.close();
    const result = await runReceiver({ url: receiver.url, secret: SECRET, out: null, timeoutMs: 5000 });
    expect(result.exitCode).toBe(2);
    expect(result.reachability.reachable).toBe(false);
    expect(result.requirements.every((r) => r.verdict === 'error')).toBe(true);
  });
});

describe('the example receiver (examples/receiver/receiver.mjs)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [EXAMPLE], {
      env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: '0' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
    url = chunk.toString('utf8').trim();
  });

  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('passes: `receiver --url …` with A2A_WEBHOOK_SECRET exits 0, the signature checks exercised', async () => {
    const out: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'a2a-example-receiver-'));
    const io = { out: (t: string) => void out.push(t), err: (t: string) => void out.push(t) };
    try {
      const code = await main(
        ['node', 'a2a-conformance', 'receiver', '--url', url, '--out', dir, '--quiet'],
        {
          ...io,
          env: { NO_COLOR: '1', A2A_WEBHOOK_SECRET: SECRET },
        },
      );
      expect(out.join(''), out.join('')).toMatch(/exit 0/);
      expect(code).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunResult;
      expect(report.requirements.filter((r) => r.verdict !== 'pass').map((r) => r.id)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('decodes a delivery in gzip, deflate or br and checks its signature over the payload text; refuses another coding with 415 (C-58)', async () => {
    const payload = Buffer.from(
      JSON.stringify({ event: 'task.completed', taskId: 't-1', delivery: { attempt: 1, maxAttempts: 4 } }),
    );
    const signature = `sha256=${createHmac('sha256', SECRET).update(payload).digest('hex')}`;
    const deliver = async (coding: string, body: Buffer, id: string) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-encoding': coding,
          'x-webhook-signature': signature,
          'x-webhook-delivery': id,
        },
        body,
      });
      await res.text();
      return `${coding} ${res.status} ${res.headers.get('accept-encoding')}`;
    };
    expect(await deliver('gzip', gzipSync(payload), 'c-1')).toBe('gzip 200 gzip, deflate, br');
    expect(await deliver('deflate', deflateSync(payload), 'c-2')).toBe('deflate 200 gzip, deflate, br');
    expect(await deliver('br', brotliCompressSync(payload), 'c-3')).toBe('br 200 gzip, deflate, br');
    expect(await deliver('zstd', payload, 'c-4')).toBe('zstd 415 gzip, deflate, br');
    expect(await deliver('gzip', Buffer.from('not gzip'), 'c-5')).toBe('gzip 400 gzip, deflate, br');
  });

  it('refuses bad flags with exit 2', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => void err.push(t), env: {} };
    expect(await main(['node', 'a2a-conformance', 'receiver', '--url', 'ftp://x'], io)).toBe(2);
    expect(
      await main(['node', 'a2a-conformance', 'receiver', '--url', url, '--header', 'no colon'], io),
    ).toBe(2);
    expect(err.join('')).toMatch(/--header must be name:value/);
  });
});

describe('legal receiver variants pass', () => {
  for (const legal of LEGAL_RECEIVERS) {
    it.concurrent(`${legal.slug}: every receiver requirement passes`, async () => {
      const result = await certify(legal.handler);
      expect(Object.entries(verdicts(result)).filter(([, v]) => v !== 'pass')).toEqual([]);
      expect(result.exitCode).toBe(0);
    });
  }
});

describe('baselines work as for run', () => {
  it('excuses a listed failure, and fails the run once it passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-receiver-baseline-'));
    const baseline = join(dir, 'baseline.json');
    writeFileSync(baseline, JSON.stringify({ expectedFailures: ['6.5/receiver-acknowledges-events'] }));
    const refusesWorking = BROKEN_RECEIVERS.find((b) => b.slug === 'refuses-task-working')!;
    try {
      for (const [handler, exit] of [
        [refusesWorking.handler, 0],
        [correct, 1],
      ] as const) {
        const receiver = await serveReceiver(handler, SECRET);
        try {
          const result = await runReceiver({
            url: receiver.url,
            secret: SECRET,
            out: null,
            timeoutMs: 5000,
            baseline,
          });
          expect(result.exitCode, result.exitReason).toBe(exit);
        } finally {
          await receiver.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('broken receivers are caught, requirement by requirement', () => {
  for (const broken of BROKEN_RECEIVERS) {
    it.concurrent(
      `${receiverName(broken)}: ${broken.breaks} is graded ${getRequirement(broken.breaks).level === 'MUST' ? 'fail' : 'warn'}`,
      async () => {
        const result = await certify(broken.handler, broken.timeoutMs);
        const expected = getRequirement(broken.breaks).level === 'MUST' ? 'fail' : 'warn';
        const got = result.requirements.find((r) => r.id === broken.breaks)!;
        expect(got.verdict, JSON.stringify(got.checks.map((c) => c.message))).toBe(expected);
        expect(result.exitCode).toBe(expected === 'fail' ? 1 : 0);
      },
      30_000,
    );
  }
});
