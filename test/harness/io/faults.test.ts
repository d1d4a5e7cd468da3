// The transport fault policy (harness/io/target/faults.ts): the report's kinds each have one policy,
// a code classifies as one kind, what still counts as an answer, and which requests are sent again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Exchange, IoError } from '../../../core/evidence.ts';
import {
  classifyError,
  completeAnswer,
  FAULTS,
  sendResendingReads,
} from '../../../harness/io/target/faults.ts';
import { BodyTooLargeError } from '../../../harness/io/target/io-errors.ts';

const REPORT_SCHEMA = JSON.parse(
  readFileSync(new URL('../../../schemas/report.schema.json', import.meta.url), 'utf8'),
) as { $defs: { ioError: { properties: { kind: { enum: string[] } } } } };

function socketError(code: string): Error {
  return new Error('fetch failed', { cause: Object.assign(new Error(code.toLowerCase()), { code }) });
}

function exchange(error?: IoError, status?: number): Exchange {
  return {
    kind: 'rpc',
    request: { method: 'POST', url: 'http://127.0.0.1:1/', headers: {} },
    timings: {},
    ...(error === undefined ? {} : { error }),
    ...(status === undefined ? {} : { response: { status, headers: {}, bodyText: '' } }),
  } as unknown as Exchange;
}

describe('the transport fault policy', () => {
  it("has one policy per kind of the report's ioError.kind, and a code names one kind", () => {
    expect(Object.keys(FAULTS).sort()).toEqual([...REPORT_SCHEMA.$defs.ioError.properties.kind.enum].sort());
    const codes = Object.values(FAULTS).flatMap((f) => f.codes);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('classifies a failure by its code (or its cause), the harness deadline and the body cap', () => {
    for (const [kind, policy] of Object.entries(FAULTS)) {
      for (const code of policy.codes)
        expect(classifyError(socketError(code), false)).toMatchObject({ kind, code });
    }
    expect(classifyError(socketError('ECONNRESET'), true).kind).toBe('timeout');
    expect(classifyError(new BodyTooLargeError(16), true).kind).toBe('body-too-large');
    expect(classifyError(new Error('odd'), false)).toEqual({ kind: 'other', message: 'odd' });
    expect(classifyError(socketError('ECONNRESET'), false).message).toBe('fetch failed (econnreset)');
  });

  it('counts an answer cut by a fault as no answer, except a body over its cap', () => {
    expect(completeAnswer(exchange(undefined, 200))).toBe(true);
    expect(completeAnswer(exchange({ kind: 'body-too-large', message: 'cap' }, 200))).toBe(true);
    expect(completeAnswer(exchange({ kind: 'reset', message: 'cut' }, 200))).toBe(false);
    expect(completeAnswer(exchange({ kind: 'timeout', message: 'late' }, 200))).toBe(false);
    expect(completeAnswer(exchange({ kind: 'connect', message: 'refused' }))).toBe(false);
  });

  it('sends a read once more after a reset before any answer, and nothing else', async () => {
    const sends = async (method: string, first: Exchange): Promise<number> => {
      let n = 0;
      const answers = [first, exchange(undefined, 200)];
      const last = await sendResendingReads(method, async () => answers[n++]!);
      if (n === 2) {
        expect(first.error?.message).toMatch(/sent once more/);
        expect(last).toBe(answers[1]);
      }
      return n;
    };
    expect(await sends('tasks/get', exchange({ kind: 'reset', message: 'closed' }))).toBe(2);
    expect(await sends('agent/authenticatedExtendedCard', exchange({ kind: 'reset', message: 'x' }))).toBe(2);
    expect(await sends('message/send', exchange({ kind: 'reset', message: 'closed' }))).toBe(1);
    expect(await sends('tasks/cancel', exchange({ kind: 'reset', message: 'closed' }))).toBe(1);
    expect(await sends('tasks/get', exchange({ kind: 'timeout', message: 'late' }))).toBe(1);
    expect(await sends('tasks/get', exchange({ kind: 'reset', message: 'cut' }, 200))).toBe(1);
    expect(await sends('tasks/get', exchange(undefined, 200))).toBe(1);
  });
});
