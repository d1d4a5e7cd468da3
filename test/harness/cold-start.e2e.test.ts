// A whole certification behind a front that holds the probe's first answer beyond --timeout-ms
// (harness/runner/first-answer.ts): the run waits it out as a cold start, certifies the agent, and
// reports the first answer apart. The probe's own cases are in cold-start.test.ts.
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../harness/index.ts';
import { listen, pause, readBody, relay } from '../../harness/kit/loopback.ts';
import { startBundledTarget } from '../../harness/runner/bundled-target.ts';

describe('a run behind a front that holds the first answer beyond --timeout-ms', () => {
  it('certifies the agent (exit 0), the first answer reported apart', async () => {
    const bundled = await startBundledTarget();
    let n = 0;
    const front = await listen(
      createServer((req, res) => {
        void (async () => {
          const body = await readBody(req);
          n += 1;
          if (n === 1) await pause(1_500);
          await relay(req, res, bundled.baseUrl, { body });
        })().catch(() => res.destroy());
      }),
    );
    try {
      const result = await runConformance({
        target: front.baseUrl,
        agentId: bundled.agentId,
        apiKey: bundled.auth.apiKey!,
        timeoutMs: 1_000,
        only: ['2.1/jsonrpc-required'],
        out: mkdtempSync(join(tmpdir(), 'a2a-cold-')),
        runs: 2,
        log: () => undefined,
      });
      expect(result.exitCode).toBe(0);
      expect(result.reachability).toMatchObject({ reachable: true, coldStart: true });
      expect(result.reachability.firstAnswerMs).toBeGreaterThanOrEqual(1_000);
      expect(result.requirements.map((r) => r.verdict)).toEqual(['pass']);
    } finally {
      await front.close();
      await bundled.close();
    }
  }, 180_000);
});
