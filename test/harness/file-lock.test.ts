// The suite-file lock (harness/runner/file-lock.ts), held through the worker link: an exclusive file runs alone,
// its own tests share it, and a long shared check yields to a waiting exclusive file between steps.
import { describe, expect, it } from 'vitest';
import { FileLock, fileLockCalls } from '../../harness/runner/file-lock.ts';
import { holdFileLock } from '../../harness/io/links/file-hold.ts';
import { Governor } from '../../harness/io/traffic/governor.ts';
import { serveWorkerLink, WorkerLinkClient } from '../../harness/io/links/worker-link.ts';

const serve = () =>
  serveWorkerLink(new Governor({ pace: null, concurrency: 4 }), fileLockCalls(new FileLock()));

describe('the suite-file lock', () => {
  it('a long shared check yields between its steps to a file that runs alone, then holds again', async () => {
    const link = await serve();
    try {
      const r = new WorkerLinkClient(link.url);
      const order: string[] = [];
      const property = await holdFileLock(r, null);
      // Nobody waits: a yield keeps the hold (an exclusive file asking later still waits for it).
      await new Promise((resolve) => setTimeout(resolve, 250));
      await property.yield();
      const exclusive = holdFileLock(r, '/suites/08-limits/a.test.ts').then(async (hold) => {
        order.push('exclusive ran');
        await hold.release();
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]);
      // One asks soon after its last yield: it keeps going (yields are spaced, not per case).
      await property.yield();
      expect(order).toEqual([]);
      // Later, the waiting file runs before the yield returns; a shared check asking meanwhile waits too.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const yielded = property.yield().then(() => order.push('property resumed'));
      await exclusive;
      await yielded;
      expect(order).toEqual(['exclusive ran', 'property resumed']);
      // Its release waits for nothing and frees the lock: another exclusive file gets it at once.
      await property.release();
      await (await holdFileLock(r, '/suites/08-limits/b.test.ts')).release();
    } finally {
      await link.close();
    }
  });

  it('a wait for the lock ends with its signal (the run budget), and leaves the lock as it was', async () => {
    const link = await serve();
    try {
      const r = new WorkerLinkClient(link.url);
      const shared = await holdFileLock(r, null);
      // A file that runs alone waits for the shared hold; the budget ends its wait.
      const waiting = holdFileLock(r, '/suites/08-limits/rate-limit.test.ts', AbortSignal.timeout(100));
      await expect(waiting).rejects.toThrow();
      await shared.release();
      // Nothing was left held by the wait that ended: another file that runs alone gets the lock.
      const next = await holdFileLock(r, '/suites/08-limits/other.test.ts', AbortSignal.timeout(5_000));
      await next.release();
    } finally {
      await link.close();
    }
  });

  it('an exclusive file runs alone; its own tests share the lock', async () => {
    const link = await serve();
    try {
      const r = new WorkerLinkClient(link.url);
      const order: string[] = [];
      const shared = await holdFileLock(r, null);
      const exclusive = holdFileLock(r, '/suites/03-states/a.test.ts').then((hold) => {
        order.push('exclusive');
        return hold;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]);
      await shared.release();
      const holdA = await exclusive;
      const sameFile = await holdFileLock(r, '/suites/03-states/a.test.ts');
      const other = holdFileLock(r, null).then((hold) => {
        order.push('shared');
        return hold;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual(['exclusive']);
      await holdA.release();
      await sameFile.release();
      await (await other).release();
      expect(order).toEqual(['exclusive', 'shared']);
    } finally {
      await link.close();
    }
  });
});
