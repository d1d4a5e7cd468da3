// A check re-run from scratch after a transport fault (harness/check/reruns.ts), against a loopback
// target that resets the connections it is told to: a pass after a re-run counts the fault, a proven
// violation beside a passing run is an intermittent fail, and faults in every run leave the check
// not exercised naming them.
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tooManyFaulted } from '../../harness/check/property.ts';
import { runCheck } from '../../harness/check/run-check.ts';
import { newTally } from '../../harness/io/traffic/tallies.ts';
import type { ProvidedRun } from '../../harness/provided.ts';
import { testRequirement, testRun } from '../support/check-run.ts';
import { closedPort } from './fixtures/jsonrpc-fixture.ts';

const requirement = testRequirement();

/** Requests (1-based, in arrival order) whose connection the target resets before answering. */
let resetAt = new Set<number>();
/** Requests answered with an id that is not the request's (a violation of 2.2). */
let wrongIdAt = new Set<number>();
let seen = 0;
let server: Server;
let run: ProvidedRun;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen += 1;
      if (resetAt.has(seen)) {
        req.socket.destroy();
        return;
      }
      const { id, method } = JSON.parse(body) as { id: unknown; method: unknown };
      if (method === 'message/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { id: 't', final: true } })}\n\n`);
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: wrongIdAt.has(seen) ? 'not-yours' : id, result: {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  run = testRun({ baseUrl: `http://127.0.0.1:${port}`, agentId: 'a' }, { checkTimeoutMs: 10_000 });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function script(resets: number[], wrongIds: number[] = []): void {
  seen = 0;
  resetAt = new Set(resets);
  wrongIdAt = new Set(wrongIds);
}

/** Two sends, each of whose answers must carry the request's id. */
const echoesIds = {
  requirement,
  title: 'echoes ids',
  fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
    for (const id of ['one', 'two']) {
      const ex = await c.rpc('message/send', {}, { id });
      c.check(`response id of ${id}`, (ex.response.json as { id: unknown }).id, id);
    }
  },
};

/** A stream whose first event must name the task. */
const streamsATask = {
  requirement,
  title: 'streams a task',
  fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
    const s = await c.stream('message/stream', {});
    for await (const ev of s.events()) {
      c.check('first event names the task', (ev.json as { result?: { id?: unknown } }).result?.id, 't');
      return;
    }
    c.check('message/stream sends a first event', s.transcript.events.length, 1);
  },
};

describe('re-running a check after a transport fault', () => {
  it('re-runs, never fails, a check whose stream was reset before its first event', async () => {
    script([1]);
    const result = await runCheck(streamsATask, run);
    expect(result.status).toBe('pass');
    expect(result.runs?.[0]?.faults[0]).toMatchObject({ kind: 'reset', method: 'message/stream' });
    expect(result.runs?.[1]).toMatchObject({ status: 'pass', decided: true, faults: [] });
  });

  it('passes a check whose first run met a reset and whose re-run passed, the fault counted', async () => {
    script([1]);
    const tally = newTally();
    const result = await runCheck(echoesIds, run, tally);
    expect(result.status).toBe('pass');
    // traffic.faults: the reset was absorbed by the re-run, not lost.
    expect(tally.faults?.reset).toEqual({ count: 1, retried: 0, reRun: 1 });
    expect(result.intermittent).toBeUndefined();
    expect(result.runs).toHaveLength(2);
    expect(result.runs?.[0]).toMatchObject({ status: 'error', decided: false });
    expect(result.runs?.[0]?.faults[0]).toMatchObject({ kind: 'reset', method: 'message/send' });
    expect(result.runs?.[1]).toMatchObject({ status: 'pass', decided: true, faults: [] });
    expect(result.notes.join('\n')).toContain('met a transport fault and were run again from scratch');
  });

  it('fails, marked intermittent, a check whose one run proved a violation and another passed', async () => {
    // Run 1: the first answer has a wrong id (proven), the second send is reset (a fault); run 2 is clean.
    script([2], [1]);
    const result = await runCheck(echoesIds, run);
    expect(result.status).toBe('fail');
    expect(result.intermittent).toBe(true);
    expect(result.message).toContain('intermittent');
    expect(result.expected).toBe('one');
    expect(result.runs?.map((r) => [r.status, r.decided])).toEqual([
      ['fail', true],
      ['pass', false],
    ]);
    // Both runs' evidence: the failing run's as the check's own, the passing run's in its record.
    expect(result.evidence.exchanges.some((ex) => ex.response?.body.includes('not-yours'))).toBe(true);
    expect(result.runs?.[1]?.evidence?.exchanges).toHaveLength(2);
    expect(result.runs?.[1]?.assertions?.every((a) => a.pass)).toBe(true);
  });

  it('never re-runs a proven violation away: a fail with no fault runs once', async () => {
    script([], [1]);
    const result = await runCheck(echoesIds, run);
    expect(result.status).toBe('fail');
    expect(result.runs).toBeUndefined();
    expect(seen).toBe(2);
  });

  it('leaves a check whose every run met faults not exercised, naming them', async () => {
    const port = await closedPort();
    const tally = newTally();
    const result = await runCheck(echoesIds, { ...run, baseUrl: `http://127.0.0.1:${port}` }, tally);
    expect(result.status).toBe('not-exercised');
    // No run got a complete answer: a re-run that met a fault again absorbed nothing, all three lost.
    expect(tally.faults?.connect).toEqual({ count: 3, retried: 0, reRun: 0 });
    expect(result.runs).toHaveLength(3);
    expect(result.message).toMatch(
      /every run of the check \(3\) met a transport fault.*connect on message\/send/,
    );
    expect(result.runs?.every((r) => r.faults[0]?.kind === 'connect')).toBe(true);
  });

  it('discards and replaces a property case that met a fault, never a counterexample', async () => {
    script([2]);
    const result = await runCheck(echoesIdsProperty('property'), run);
    expect(result.status).toBe('pass');
    expect(result.runs).toBeUndefined();
    expect(result.notes.join('\n')).toContain('1 generated case(s) met a transport fault and were replaced');
  });

  it("replaces a long property's occasional faulted cases in proportion to its cases, more than three", async () => {
    // One reset in about twenty-five requests over 120 cases: five faults, each replaced.
    script([20, 45, 70, 95, 120]);
    const result = await runCheck(echoesIdsProperty('a long property', 120), run);
    expect(result.status).toBe('pass');
    expect(result.runs).toBeUndefined();
    expect(seen).toBe(125);
    expect(result.notes.join('\n')).toContain('5 generated case(s) met a transport fault and were replaced');
  });

  it('ends a property whose first cases all meet faults after four, never waiting out a hundred', async () => {
    script(Array.from({ length: 20 }, (_, i) => i + 1));
    const result = await runCheck(
      echoesIdsProperty('a property against a target that stopped answering', 120),
      run,
    );
    // Each of the three runs ended at its fourth fault: twelve requests, no case held.
    expect(result.status).toBe('not-exercised');
    expect(seen).toBe(12);
    expect(result.runs?.[0]?.faults[0]?.kind).toBe('reset');
  });
});

describe('tooManyFaulted', () => {
  it('allows three faulted cases, then one in twenty of the cases run', () => {
    expect(tooManyFaulted(3, 3)).toBe(false);
    expect(tooManyFaulted(4, 4)).toBe(true);
    expect(tooManyFaulted(4, 79)).toBe(true);
    expect(tooManyFaulted(4, 80)).toBe(false);
    expect(tooManyFaulted(20, 400)).toBe(false);
    expect(tooManyFaulted(21, 400)).toBe(true);
  });
});

/** A property of `numRuns` cases (default: the run's), one send each, whose answer must carry the request's id. */
function echoesIdsProperty(title: string, numRuns?: number) {
  return {
    requirement,
    title,
    fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
      await c.property(
        'ids',
        fc.integer(),
        async () => {
          const ex = await c.rpc('message/send', {}, { id: 'x' });
          return (ex.response.json as { id: unknown }).id === 'x';
        },
        numRuns === undefined ? {} : { numRuns },
      );
    },
  };
}

/** Four cases, one send each (side by side in lanes of `lanes`), each answer carrying its own id. */
function eachEchoesIds(lanes = 1) {
  return {
    requirement,
    title: 'each case echoes its id',
    fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
      await c.each(
        'each id',
        ['one', 'two', 'three', 'four'],
        async (id) => {
          const ex = await c.rpc('message/send', {}, { id });
          c.check(`response id of ${id}`, (ex.response.json as { id: unknown }).id, id);
        },
        { lanes },
      );
    },
  };
}

describe('running a case of c.each again after a transport fault', () => {
  it('passes a case whose exchange was reset and whose run again passed, the fault counted', async () => {
    script([2]);
    const tally = newTally();
    const result = await runCheck(eachEchoesIds(), run, tally);
    expect(result.status).toBe('pass');
    // The case ran again by itself: one request more, no re-run of the check.
    expect(seen).toBe(5);
    expect(result.runs).toBeUndefined();
    expect(tally.faults?.reset).toEqual({ count: 1, retried: 0, reRun: 1 });
    // The verdict comes from the case's complete run: one assertion per case, in case order.
    expect(result.assertions.map((a) => [a.label, a.pass])).toEqual([
      ['response id of one', true],
      ['response id of two', true],
      ['response id of three', true],
      ['response id of four', true],
    ]);
    expect(result.notes.join('\n')).toMatch(
      /case 2 met a transport fault and was run again from scratch 1 time\(s\): reset on message\/send/,
    );
    // The reset exchange stays in the evidence.
    expect(result.evidence.exchanges.filter((ex) => ex.error?.kind === 'reset')).toHaveLength(1);
  });

  it('runs a case again in lanes too, the report in case order', async () => {
    script([3]);
    const tally = newTally();
    const result = await runCheck(eachEchoesIds(4), run, tally);
    expect(result.status).toBe('pass');
    expect(seen).toBe(5);
    expect(tally.faults?.reset?.reRun).toBe(1);
    expect(result.assertions.map((a) => a.label)).toEqual([
      'response id of one',
      'response id of two',
      'response id of three',
      'response id of four',
    ]);
  });

  it('fails a case that proved a violation, never running it again', async () => {
    // Case 1's answer has a wrong id; case 2 is reset after it: the check stops on the proven fail.
    script([], [1]);
    const result = await runCheck(eachEchoesIds(), run);
    expect(result.status).toBe('fail');
    expect(result.expected).toBe('one');
    expect(result.runs).toBeUndefined();
    expect(seen).toBe(4);
  });

  it('fails a case whose violation came before a fault in the same run, never re-run away', async () => {
    script([2], [1]);
    const tally = newTally();
    const result = await runCheck(
      {
        requirement,
        title: 'a case of two sends',
        fn: async (c) => {
          await c.each('each pair', ['pair'], async () => {
            for (const id of ['a', 'b']) {
              const ex = await c.rpc('message/send', {}, { id });
              c.check(`response id of ${id}`, (ex.response.json as { id: unknown }).id, id);
            }
          });
        },
      },
      run,
      tally,
    );
    expect(result.status).toBe('fail');
    expect(result.expected).toBe('a');
    // The case was not run again; the check's run was (reruns.ts), and its fail still decides.
    expect(seen).toBe(4);
    expect(result.runs?.map((r) => [r.status, r.decided])).toEqual([
      ['fail', true],
      ['pass', false],
    ]);
    expect(result.intermittent).toBe(true);
  });

  it('leaves the check not exercised when every run of a case met a fault, never a fail', async () => {
    // Case 1 answers; every later request is reset: case 2 meets a fault on each of its three runs,
    // and so does each re-run of the check.
    script(Array.from({ length: 30 }, (_, i) => i + 2));
    const tally = newTally();
    const result = await runCheck(eachEchoesIds(), run, tally);
    expect(result.status).toBe('not-exercised');
    expect(result.message).toMatch(
      /every run of the check \(3\) met a transport fault.*reset on message\/send/,
    );
    // Run 1: case 1 answered, case 2 reset three times; runs 2 and 3: case 1 reset three times.
    expect(seen).toBe(1 + 3 * 3);
    // No case that met a fault ever ran to a complete answer: nothing was absorbed, all nine lost.
    expect(tally.faults?.reset).toEqual({ count: 9, retried: 0, reRun: 0 });
    expect(result.notes.join('\n')).toContain('meeting one every time');
  });
});
