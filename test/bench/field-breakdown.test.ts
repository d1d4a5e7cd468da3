// npm run field --breakdown: a report's agent turns, requests and time per suite file, read from the
// exchanges every check keeps with --evidence all.
import { describe, expect, it } from 'vitest';
import { breakdownTable, fileCosts, type BreakdownReport } from '../../bench/field/breakdown.ts';

const send = (text: string) => ({
  jsonrpc: '2.0',
  id: 'r1',
  method: 'message/send',
  params: {
    message: {
      role: 'user',
      messageId: '0b5c6f3e-1f5a-4c4e-9d1f-2a7b3c4d5e6f',
      parts: [{ type: 'text', text }],
    },
  },
});
const at = (s: number, json: unknown, totalMs = 100) => ({
  request: { json },
  timings: { startedAt: new Date(Date.UTC(2026, 10, 25, 12, 0, s)).toISOString(), totalMs },
});

const report: BreakdownReport = {
  requirements: [
    {
      id: '4.1/a',
      checks: [
        {
          file: 'suites/04-01-message-send/a.test.ts',
          durationMs: 1500,
          evidence: { exchanges: [at(0, send('x'), 1500)] },
        },
        {
          file: 'suites/04-01-message-send/a.test.ts',
          durationMs: 1600,
          evidence: {
            exchanges: [
              at(1, send('y'), 1500),
              at(3, { jsonrpc: '2.0', id: 'r2', method: 'tasks/get', params: { taskId: 't' } }),
            ],
          },
        },
      ],
    },
    {
      id: '2.3/b',
      checks: [
        // A malformed message (no parts) is refused before any LLM call: a request, no turn.
        {
          file: 'suites/02-03-message/b.test.ts',
          durationMs: 20,
          evidence: {
            exchanges: [
              at(2, {
                jsonrpc: '2.0',
                id: 'r3',
                method: 'message/send',
                params: { message: { role: 'user' } },
              }),
            ],
          },
        },
      ],
    },
  ],
};

describe('field breakdown', () => {
  it('counts turns, requests, start, span and check time per file, most turns first', () => {
    expect(fileCosts(report)).toEqual([
      {
        file: '04-01-message-send/a.test.ts',
        checks: 2,
        turns: 2,
        requests: 3,
        startS: 0,
        spanS: 3.1,
        checkS: 3.1,
      },
      { file: '02-03-message/b.test.ts', checks: 1, turns: 0, requests: 1, startS: 2, spanS: 0.1, checkS: 0 },
    ]);
  });

  it("counts an exchange a check cites from its file's shared sample once", () => {
    const sample = { id: 'ex-1', ...at(0, send('sample'), 200) };
    const cited: BreakdownReport = {
      requirements: [
        {
          id: '3/a',
          checks: ['maker', 'reader 1', 'reader 2'].map(() => ({
            file: 'suites/08-limits/q.test.ts',
            durationMs: 10,
            evidence: { exchanges: [sample] },
          })),
        },
      ],
    };
    expect(fileCosts(cited)[0]).toMatchObject({ checks: 3, turns: 1, requests: 1 });
  });

  it('prints the files that cost turns or a second', () => {
    const table = breakdownTable(report);
    expect(table).toContain('| 04-01-message-send/a.test.ts | 2 | 2 | 3 | 0 | 3.1 | 3.1 |');
    expect(table).not.toContain('b.test.ts');
  });
});
