// coveredInTime(): a task-level configuration can only be owed events that follow its set, so a task
// that can end by itself (plain, or scripted with a delay) and was already final when the set was
// taken leaves the check not-exercised; a held task (runUntilCanceled until finish()) never is.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../suites/support/index.ts';
import { coveredInTime } from '../../suites/support/webhooks.ts';

class NotExercised extends Error {}

/** A context whose tasks/get reads `state` at `updatedAt` and whose stored config was created at `createdAt`. */
function context(state: string, updatedAt: string, createdAt: string): CheckContext {
  const answer = (result: object) => ({
    response: { status: 200, headers: {}, body: '', json: { jsonrpc: '2.0', id: 1, result } },
  });
  return {
    rpc: async (method: string) =>
      method === 'tasks/get'
        ? answer({ id: 't1', status: { state }, updatedAt })
        : answer({ config: { url: 'http://127.0.0.1/h', createdAt } }),
    notExercised: (reason: string) => {
      throw new NotExercised(reason);
    },
  } as unknown as CheckContext;
}

const task = (held: boolean) => ({ taskId: 't1', held });

describe('coveredInTime', () => {
  it('a task that ended before its configuration was stored is not exercised, scripted or not', async () => {
    const c = context('failed', '2026-11-25T10:00:01.500Z', '2026-11-25T10:00:02.100Z');
    await expect(coveredInTime(c, task(false))).rejects.toThrow(/already failed .* outlasts the set/);
  });

  it('a tie proves nothing; a set stored strictly before the end, or a task still running, is covered', async () => {
    const tie = context('failed', '2026-11-25T10:00:02Z', '2026-11-25T10:00:02Z');
    await expect(coveredInTime(tie, task(false))).rejects.toBeInstanceOf(NotExercised);
    const before = context('failed', '2026-11-25T10:00:02.000Z', '2026-11-25T10:00:01.999Z');
    await expect(coveredInTime(before, task(false))).resolves.toBeUndefined();
    const running = context('working', '2026-11-25T10:00:01Z', '2026-11-25T10:00:02Z');
    await expect(coveredInTime(running, task(false))).resolves.toBeUndefined();
  });

  it('a held task is covered without a read: it runs until the harness finishes it', async () => {
    const c = context('failed', '2026-11-25T10:00:01Z', '2026-11-25T10:00:02Z');
    await expect(coveredInTime(c, task(true))).resolves.toBeUndefined();
  });
});
