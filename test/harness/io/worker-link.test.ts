// The link between the suites' workers and the runner (worker-link.ts): one table of calls, each
// call's request and answer declared once and checked on both sides; the governor's refusals rebuilt
// in the worker; a grant that never reaches its worker given back.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileLock, fileLockCalls } from '../../../harness/runner/file-lock.ts';
import { Governor, RunBudgetError } from '../../../harness/io/traffic/governor.ts';
import { PaceBudgetError } from '../../../harness/io/traffic/pace.ts';
import { newTally } from '../../../harness/io/traffic/tallies.ts';
import { listen, readBody, relay } from '../../../harness/kit/loopback.ts';
import {
  RemoteGovernor,
  serveWorkerLink,
  WORKER_CALL_NAMES,
  WorkerLinkClient,
  type WorkerLinkServer,
} from '../../../harness/io/links/worker-link.ts';
import { LINK_MESSAGE_BYTES, LinkError } from '../../../harness/io/links/link-protocol.ts';

describe('the link to the runner (suite files in several workers)', () => {
  it('keeps one pace and one count for every worker, and rebuilds its refusals', async () => {
    const g = new Governor({
      pace: { limit: 1, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      deadlineAt: Date.now() + 2_000,
    });
    const link = await serveWorkerLink(g, fileLockCalls(new FileLock()));
    try {
      const a = new RemoteGovernor(link.url);
      const b = new RemoteGovernor(link.url);
      const tally = newTally();
      (await a.admit({ turn: true, tally }))();
      await expect(b.admit({ turn: false })).rejects.toBeInstanceOf(PaceBudgetError);
      expect(tally).toMatchObject({ requests: 1, agentTurns: 1 });
      expect(g.total.requests).toBe(1);
      // A follow-up whose place was kept crosses the link as such: let out into the full window.
      (await b.admit({ turn: false, prepaid: true }))();
      expect(g.total.requests).toBe(2);
    } finally {
      await link.close();
    }
  });

  it("refuses every worker's request once the run's budget has ended", async () => {
    const link = await serveWorkerLink(
      new Governor({ pace: null, concurrency: 4, endsAt: Date.now() - 1 }),
      fileLockCalls(new FileLock()),
    );
    try {
      await expect(new RemoteGovernor(link.url).admit({ turn: false })).rejects.toBeInstanceOf(
        RunBudgetError,
      );
    } finally {
      await link.close();
    }
  });
});

describe('a release that does not reach the runner', () => {
  it('is sent again, so the slot is not lost to the run', async () => {
    const g = new Governor({ pace: null, concurrency: 1 });
    const link = await serveWorkerLink(g, fileLockCalls(new FileLock()));
    // In front of the runner: the first release's connection is dropped before any answer.
    let dropped = 0;
    const front = await listen(
      createServer((req, res) => {
        if (req.url === '/release' && dropped === 0) {
          dropped += 1;
          req.socket.destroy();
          return;
        }
        void readBody(req).then((body) => relay(req, res, link.url, { body }));
      }),
    );
    try {
      const worker = new RemoteGovernor(front.baseUrl);
      (await worker.admit({ turn: false }))();
      // With the one slot leaked, this admit would wait forever.
      const second = await worker.admit({ turn: false, signal: AbortSignal.timeout(5_000) });
      second();
      expect(dropped).toBe(1);
      expect(g.total.requests).toBe(2);
    } finally {
      await front.close();
      await link.close();
    }
  });
});

describe("a worker's view of the time the agent's limits held the run back", () => {
  it('never goes back, and counts a wait no more than once', async () => {
    // One request per 300 ms window (and its 1 s slack): the second and third wait on the pace, at once.
    const pace = { limit: 1, windowMs: 300, source: 'option' as const };
    const g = new Governor({ pace, concurrency: 4, deadlineAt: Date.now() + 60_000 });
    const link = await serveWorkerLink(g, fileLockCalls(new FileLock()));
    try {
      const worker = new RemoteGovernor(link.url);
      (await worker.admit({ turn: false }))();
      const seen: number[] = [];
      const sampling = setInterval(() => seen.push(worker.heldBackMs()), 20);
      try {
        await Promise.all([worker.admit({ turn: false }), worker.admit({ turn: false })]).then((rs) =>
          rs.forEach((release) => release()),
        );
      } finally {
        clearInterval(sampling);
      }
      seen.push(worker.heldBackMs());
      expect(seen.length).toBeGreaterThan(20);
      const back = seen.findIndex((ms, i) => i > 0 && ms < seen[i - 1]!);
      expect(
        back,
        `went back at sample ${back}: ${seen.slice(Math.max(0, back - 2), back + 2).join(', ')}`,
      ).toBe(-1);
      // The overlapping waits count once: no more than the runner's own figure (a link round trip aside).
      expect(seen.at(-1)!).toBeLessThanOrEqual(g.heldBackMs() + 100);
      expect(seen.at(-1)!).toBeGreaterThan(2_000);
    } finally {
      await link.close();
    }
  });
});

describe('the table of calls', () => {
  let link: WorkerLinkServer;
  beforeAll(async () => {
    link = await serveWorkerLink(new Governor({ pace: null, concurrency: 4 }), fileLockCalls(new FileLock()));
  });
  afterAll(async () => {
    await link.close();
  });

  async function post(path: string, body: string): Promise<{ status: number; json: unknown }> {
    const res = await request(`${link.url}${path}`, { method: 'POST', body });
    return { status: res.statusCode, json: await res.body.json() };
  }

  it('refuses a call whose body is unlike its declaration, saying what is wrong', async () => {
    const client = new WorkerLinkClient(link.url);
    // The types come from the same table: a wrong body does not compile either.
    // @ts-expect-error turn is a boolean, bypass is missing
    const wrong = await client.call('admit', { turn: 'yes' }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(LinkError);
    expect((wrong as Error).message).toBe('link: admit request: bypass: is missing; turn: must be boolean');
    expect(await post('/release', '{"lease":1,"extra":0}')).toMatchObject({
      status: 400,
      json: {
        error: {
          name: 'LinkError',
          message: 'link: release request: extra: is not a field of it',
        },
      },
    });
    expect(await post('/rateLimited', '{"attempt":-1,"retryAfterMs":"1"}')).toMatchObject({
      status: 400,
      json: {
        error: {
          message: 'link: rateLimited request: attempt: must be >= 0; retryAfterMs: must be number',
        },
      },
    });
    expect(await post('/lock', '[]')).toMatchObject({
      status: 400,
      json: { error: { message: 'link: lock request: must be object' } },
    });
    expect(await post('/lock', '{"exclusive":')).toMatchObject({
      status: 400,
      json: { error: { message: 'link: lock request is not JSON' } },
    });
    // A message over the link's cap is refused whole, with a 400 that says so.
    const huge = await post('/lock', `{"exclusive":"${'x'.repeat(LINK_MESSAGE_BYTES)}"}`);
    expect(huge).toMatchObject({
      status: 400,
      json: { error: { message: `link: lock request is over ${LINK_MESSAGE_BYTES} bytes` } },
    });
    // Nothing was granted by the refused calls: the governor counts no request.
    expect((await client.call('release', { lease: 0 })).inFlight).toBe(0);
  });

  it('refuses a call that is not in the table, naming those that are', async () => {
    const { status, json } = await post('/admitt', '{}');
    expect(status).toBe(404);
    const message = (json as { error: { message: string } }).error.message;
    expect(message).toMatch(/^link: no call POST \/admitt/);
    for (const name of WORKER_CALL_NAMES) expect(message).toContain(name);
  });

  it('a worker refuses an answer unlike its declaration', async () => {
    const liar = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          answer: { lease: 'one' },
          state: { inFlight: 0, heldBackMs: 0, allowanceMs: 0, paceWaitMs: 0, tasks: 0 },
        }),
      );
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    try {
      const client = new WorkerLinkClient(`http://127.0.0.1:${(liar.address() as AddressInfo).port}`);
      await expect(client.call('admit', { turn: false, bypass: false })).rejects.toThrow(
        'link: admit answer: lease: must be integer',
      );
    } finally {
      await new Promise((resolve) => liar.close(resolve));
    }
  });

  it('a grant that never reaches its worker (it gave up waiting) is given back', async () => {
    const client = new WorkerLinkClient(link.url);
    const shared = await client.call('lock', { exclusive: null });
    const gone = new AbortController();
    const waiting = client
      .call('lock', { exclusive: '/suites/a.test.ts' }, gone.signal)
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    gone.abort(new Error('check ended'));
    await waiting;
    await client.call('unlock', { hold: shared.hold });
    // The lock granted to the worker that left is free again: another file gets it at once.
    const b = await client.call('lock', { exclusive: '/suites/b.test.ts' });
    await client.call('unlock', { hold: b.hold });
  });

  it('an unlock sent twice ends its hold once (it is resent when its answer is lost)', async () => {
    const client = new WorkerLinkClient(link.url);
    const first = await client.call('lock', { exclusive: null });
    const second = await client.call('lock', { exclusive: null });
    await client.call('unlock', { hold: first.hold });
    await client.call('unlock', { hold: first.hold });
    // The second shared hold still stands: a file that runs alone waits for it, not for the repeat.
    const alone = new AbortController();
    const waiting = client.call('lock', { exclusive: '/suites/c.test.ts' }, alone.signal);
    const early = await Promise.race([
      waiting.then(() => 'granted'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 100)),
    ]);
    expect(early).toBe('waiting');
    await client.call('unlock', { hold: second.hold });
    const c = await waiting;
    await client.call('unlock', { hold: c.hold });
  });
});
