// fleet.html: self-contained (no http(s) asset, a CSP that forbids fetches, data embedded with `<`
// escaped), and in real headless Chromium (Debian's, driven by playwright-core) opened from disk: the
// table sorts by a clicked column both ways, the level, status and text filters hide and show rows,
// an agent's name links to its report.html and the link opens, markup in a name stays text.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOfflinePage } from '../support/offline-page.ts';
import { fleetHtmlData, renderFleetHtml } from '../../reporters/fleet/fleet-html.ts';
import { EVIL_NAME, fleetReport } from './fixtures.ts';

describe('fleet.html changes since --previous', () => {
  it('embeds the regressed and fixed agents with their before and after', () => {
    const report = fleetReport();
    const state = { level: 'fully-compliant' as const, exitCode: 0 as const, score: 100 };
    const after = { level: 'not-compliant' as const, exitCode: 1 as const, score: 80 };
    report.changes = {
      previous: 'last/fleet.json',
      previousGeneratedAt: '2026-11-24T09:00:00.000Z',
      regressed: [
        { name: 'travel', before: state, after, newlyFailing: ['7/method-not-found-code'], nowPassing: [] },
      ],
      fixed: [],
      added: ['search'],
      removed: ['legacy'],
      newlyFailing: ['7/method-not-found-code'],
    };
    const data = fleetHtmlData(report);
    expect(data.changes?.regressed).toEqual([
      {
        name: 'travel',
        before: 'fully compliant 100% (exit 0)',
        after: 'not compliant 80% (exit 1)',
        newlyFailing: ['7/method-not-found-code'],
        nowPassing: [],
      },
    ]);
    expect(data.changes).toMatchObject({
      added: ['search'],
      removed: ['legacy'],
      previous: 'last/fleet.json',
    });
  });
});

describe('fleet.html as a file', () => {
  const html = renderFleetHtml(fleetReport());

  it('references no http(s) asset and forbids every fetch with a Content-Security-Policy', () => {
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<(?:link|script)[^>]+(?:href|src)=["'](?!data:)/i);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+';/,
    );
  });

  it('embeds the data with < escaped, so a name cannot close the script block', () => {
    const block = html.slice(html.indexOf('<script type="application/json"'), html.lastIndexOf('<script>'));
    expect(block.match(/<\/script>/g)).toHaveLength(1);
    expect(block).not.toContain('<img');
  });
});

describe('fleet.html in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'a2a-fleet-html-'));
  const url = pathToFileURL(join(dir, 'fleet.html')).href;
  const names = () =>
    page.locator('#agents tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));

  beforeAll(async () => {
    const report = fleetReport();
    report.changes = {
      previous: 'last/fleet.json',
      previousGeneratedAt: '2026-11-24T09:00:00.000Z',
      regressed: [],
      fixed: [
        {
          name: 'billing',
          before: { level: 'must-compliant', exitCode: 0, score: 90 },
          after: { level: 'fully-compliant', exitCode: 0, score: 100 },
          newlyFailing: [],
          nowPassing: ['7/x'],
        },
      ],
      added: [],
      removed: [],
      newlyFailing: [],
    };
    writeFileSync(join(dir, 'fleet.html'), renderFleetHtml(report));
    mkdirSync(join(dir, 'shard-1', 'travel'), { recursive: true });
    writeFileSync(
      join(dir, 'shard-1', 'travel', 'report.html'),
      '<!doctype html><title>travel report</title>',
    );
    ({ browser, page } = await openOfflinePage(url, problems));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the verdict, the agents by level, and every agent worst level first', async () => {
    expect(await page.locator('#verdict').innerText()).toContain('some agents could not be run');
    const summary = await page.locator('#summary').innerText();
    expect(summary).toMatch(
      /fully compliant\s+1\s+MUST-compliant\s+1\s+unverified\s+1\s+not compliant\s+1\s+no report\s+1/,
    );
    expect(summary).toMatch(/tool\s+a2a-conformance 0\.1\.0/);
    expect(await page.locator('#shown').innerText()).toBe('5 of 5 agents shown');
    expect(await names()).toEqual(['weather', 'travel', EVIL_NAME, 'search', 'billing']);
    expect(await page.locator('#requirements tbody tr').first().innerText()).toMatch(
      /7\/jsonrpc-errors-http-200\s+SHOULD\s+2 of 5/,
    );
  });

  it('sorts by a clicked column, and the other way on a second click', async () => {
    await page.locator('button.sort[data-sort="wallMs"]').click();
    expect(await names()).toEqual(['weather', 'travel', 'search', 'billing', EVIL_NAME]);
    expect(await page.locator('button.sort[data-sort="wallMs"]').getAttribute('aria-sort')).toBe(
      'descending',
    );
    await page.locator('button.sort[data-sort="wallMs"]').click();
    expect(await names()).toEqual([EVIL_NAME, 'billing', 'search', 'travel', 'weather']);
    await page.locator('button.sort[data-sort="name"]').click();
    expect(await names()).toEqual([EVIL_NAME, 'billing', 'search', 'travel', 'weather']);
    await page.locator('button.sort[data-sort="score"]').click();
    expect(await names()).toEqual(['billing', 'search', 'travel', EVIL_NAME, 'weather']);
  });

  it('filters by level, by status and by text', async () => {
    await page.locator('input[name=level][value=fully-compliant]').uncheck();
    expect(await names()).toEqual(['search', 'travel', EVIL_NAME, 'weather']);
    await page.locator('input[name=status][value=not-run]').uncheck();
    expect(await names()).toEqual(['search', 'travel']);
    expect(await page.locator('#shown').innerText()).toBe('2 of 5 agents shown');
    await page.locator('#text').fill('travel.example');
    expect(await names()).toEqual(['travel']);
    await page.locator('#text').fill('');
    await page.locator('input[name=level][value=fully-compliant]').check();
    await page.locator('input[name=status][value=not-run]').check();
    expect(await page.locator('#shown').innerText()).toBe('5 of 5 agents shown');
  });

  it('lists the agents fixed since --previous with their before and after', async () => {
    expect(await page.locator('#changes').innerText()).toMatch(/Changes since last\/fleet\.json/);
    expect(await page.locator('#fixed').innerText()).toBe(
      'billing MUST-compliant 90% (exit 0) → fully compliant 100% (exit 0) · now passing: 7/x',
    );
  });

  it('keeps markup in a name as text, and says why an agent without a report has none', async () => {
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator(`#agents tr[data-name="weather"]`).innerText()).toContain(
      'killed after 660000 ms',
    );
    expect(await page.locator(`#agents tr[data-name="weather"] a`).count()).toBe(0);
  });

  it("links an agent's name to its report.html, which opens", async () => {
    const link = page.locator('#agents tr[data-name="travel"] a');
    expect(await link.getAttribute('href')).toBe('shard-1/travel/report.html');
    await link.click();
    await page.waitForURL(/travel\/report\.html$/);
    expect(await page.title()).toBe('travel report');
  });

  it('logged no console error or warning and made no request beyond its own files', () => {
    expect(problems).toEqual([]);
  });
});
