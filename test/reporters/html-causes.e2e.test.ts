// report.html of an A2A v0.3 agent's run, in headless Chromium: the verdict banner, then the dialect
// and the root causes, each cause linking to the requirements it explains (a click opens one), and
// the traffic of the run; no script error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOfflinePage } from '../support/offline-page.ts';
import { analyseRun } from '../../harness/analysis/root-causes.ts';
import type { RunTraffic } from '../../core/types.ts';
import { renderHtml } from '../../reporters/html/html-report.ts';
import { anchorOf } from '../../reporters/sections.ts';
import { V03_PROBE, v03Requirements } from './dialect-fixtures.ts';
import { fixtureRun } from './fixtures.ts';

const TRAFFIC: RunTraffic = {
  profile: 'smoke',
  requests: 40,
  agentTurns: 6,
  maxTurns: null,
  turnLatencyMs: { p50: 900, p95: 1200, samples: 6 },
  rateLimit: { requestsPerMinute: 50, source: 'option', waitedMs: 0, rateLimitedAnswers: 0 },
  concurrency: { limit: 2, maxInFlight: 2 },
  cut: [],
  properties: [],
};

describe('report.html leads with the dialect and the root causes', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const { requirements } = v03Requirements();
    const run = fixtureRun(requirements, { traffic: TRAFFIC, ...analyseRun(requirements, V03_PROBE) });
    const file = join(mkdtempSync(join(tmpdir(), 'a2a-html-causes-')), 'report.html');
    writeFileSync(file, renderHtml(run));
    ({ browser, page } = await openOfflinePage(pathToFileURL(file).href, problems));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the verdict, then the dialect, then the causes, in that order', async () => {
    const order: string[] = [];
    for (const node of await page.locator('#header > [id]').all())
      order.push((await node.getAttribute('id'))!);
    expect(order.slice(0, 3)).toEqual(['compliance', 'dialect', 'root-causes']);
    expect(await page.locator('#dialect').innerText()).toContain(
      "Dialect: this agent speaks the official A2A v0.3 JSON-RPC, not this spec's. 7 of 8 finding(s)",
    );
    expect(await page.locator('#root-causes > ol > li').count()).toBe(5);
    expect(await page.locator('#traffic').innerText()).toContain('paced at 50/min (--rate)');
  });

  it('opens a requirement from its link under a cause', async () => {
    const id = '2.14/card-agent-name';
    await page.locator(`#root-causes a[href="#${anchorOf(id)}"]`).click();
    await page.waitForSelector(`details[id="${anchorOf(id)}"][open]`, { timeout: 5_000 });
    expect(problems).toEqual([]);
  });
});
