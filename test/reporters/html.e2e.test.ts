// report.html: self-contained (no http(s) asset, data embedded as JSON with `<` escaped, a CSP that
// forbids fetches), and in real headless Chromium (Debian's, driven by playwright-core): it renders,
// the verdict, level and matrix filters hide and show rows, a #req- link opens its requirement with
// spec text, ruling, expected vs actual and timelines, target-written markup stays text, no console error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOfflinePage } from '../support/offline-page.ts';
import { htmlData } from '../../reporters/html/html-data.ts';
import { embedJson, renderHtml } from '../../reporters/html/html-report.ts';
import { anchorOf } from '../../reporters/sections.ts';
import { check, exchange, fixtureRun, requirement } from './fixtures.ts';

const EVIL = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

function evilRun() {
  const run = fixtureRun();
  run.requirements[1]!.checks[0]!.actual = EVIL;
  run.requirements[6]!.message = EVIL;
  return run;
}

describe('report.html as a file', () => {
  const html = renderHtml(evilRun());

  it('references no http(s) URL for assets: no src, href, url() or @import leaves the file', () => {
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<(?:link|script)[^>]+(?:href|src)=["'](?!data:)/i);
  });

  it('forbids every fetch with a Content-Security-Policy; only its own inline script may run', () => {
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+';/,
    );
  });

  it('embeds the data as JSON with < escaped, so evidence cannot close the script block', () => {
    expect(embedJson({ a: '</script><!--' })).toBe('{"a":"\\u003c/script\\u003e\\u003c!--"}');
    const block = html.slice(html.indexOf('<script type="application/json"'), html.lastIndexOf('<script>'));
    expect(block.match(/<\/script>/g)).toHaveLength(1);
    expect(block).not.toContain('<img');
  });
});

describe('report.html data', () => {
  it('trims evidence for the page and says where the rest is, keeping more for failed checks', () => {
    const big = exchange('ex-1', { text: 'x'.repeat(100_000) }, {});
    const exchanges = Array.from({ length: 40 }, () => big);
    const evidence = { exchanges, streams: [], deliveries: [] };
    const id = '2.1/jsonrpc-required';
    const run = fixtureRun([
      requirement(id, 'fail', [check(id, 'pass', { evidence }), check(id, 'fail', { evidence })]),
    ]);
    const [passed, failed] = htmlData(run).requirements[0]!.checks;
    expect(passed!.exchanges).toHaveLength(6);
    expect(passed!.omittedExchanges).toBe(34);
    expect(passed!.exchanges[0]!.request.length).toBeLessThan(1_600);
    expect(failed!.exchanges).toHaveLength(30);
    expect(failed!.exchanges[0]!.request.length).toBeLessThan(8_100);
    expect(failed!.exchanges[0]!.request).toMatch(/… \[\d+ more characters in report.json\]$/);
  });

  it('carries the spec text and the text of each cited ruling', () => {
    const data = htmlData(fixtureRun());
    const r = data.requirements.find((q) => q.id === '2.2/response-id-equals-request-id')!;
    expect(r.spec?.text).toContain('Equals the request `id`');
    expect(r.rulings).toContain('C-13');
    expect(data.rulings['C-13']?.title).toBe('Id types');
  });
});

describe('report.html in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'a2a-html-'));
  const file = join(dir, 'report.html');
  const url = pathToFileURL(file).href;

  beforeAll(async () => {
    writeFileSync(file, renderHtml(evilRun()));
    ({ browser, page } = await openOfflinePage(url, problems));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
  });

  const visible = (selector: string) => page.locator(`${selector}:not([hidden])`).count();

  it('renders the compliance banner, the section matrix and one row per requirement', async () => {
    expect(await page.locator('#compliance').innerText()).toContain('not compliant score 42.8% (3/7');
    expect(await page.locator('#matrix tbody tr').count()).toBe(7);
    expect(await page.locator('#matrix button[data-section="2.2"][data-verdict="fail"]').innerText()).toBe(
      '1',
    );
    expect(await visible('details.req')).toBe(9);
    expect(await page.locator('#shown').innerText()).toBe('9 of 9 requirements shown');
  });

  it('hides and shows rows with the verdict and level filters', async () => {
    await page.locator('input[name=verdict][value=pass]').uncheck();
    expect(await visible('details.req[data-verdict=pass]')).toBe(0);
    expect(await visible('details.req')).toBe(6);
    expect(await page.locator('#shown').innerText()).toBe('6 of 9 requirements shown');
    await page.locator('input[name=level][value=MUST]').uncheck();
    expect(await visible('details.req')).toBe(2);
    expect(await visible('details.req[data-level=MUST]')).toBe(0);
    await page.locator('input[name=verdict][value=pass]').check();
    await page.locator('input[name=level][value=MUST]').check();
    expect(await visible('details.req')).toBe(9);
  });

  it('narrows to one section and verdict from a matrix cell, hiding empty sections', async () => {
    await page.locator('#matrix button[data-section="2.1"][data-verdict="warn"]').click();
    expect(await visible('details.req')).toBe(1);
    expect(await page.locator('details.req:not([hidden])').getAttribute('id')).toBe(
      anchorOf('2.1/id-required'),
    );
    expect(await visible('section.group')).toBe(1);
    await page.locator('#reset-filters').click();
    expect(await visible('details.req')).toBe(9);
  });

  it('opens a requirement from its #req- anchor with spec text, ruling, expected vs actual and exchanges', async () => {
    const id = '2.2/response-id-equals-request-id';
    await page.goto(`${url}#${anchorOf(id)}`);
    await page.waitForSelector('body[data-ready="true"]');
    const req = page.locator(`details.req[id="${anchorOf(id)}"]`);
    expect(await req.getAttribute('open')).not.toBeNull();
    const text = await req.innerText();
    expect(text).toContain('Spec text');
    expect(text).toMatch(/spec line \d+/);
    expect(text).toContain('Ruling C-13');
    expect(text).toMatch(/expected\s+"r1"\s+actual\s+"<\/script>/);
    expect(text).toContain('ex-1 http POST http://127.0.0.1:8080/api/v1/a2a/agent-1 -> 200');
    expect(text).toContain(EVIL.slice(0, 30));
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('shows the SSE event timeline and the webhook attempts with measured vs expected delays', async () => {
    await page.locator(`details.req[id="${anchorOf('4.2/stream-single-final-event')}"] > summary`).click();
    const sse = await page.locator('.timeline.sse').first().innerText();
    expect(sse).toMatch(/250 ms\s+event\s+completed \(final\)/);
    expect(sse).toMatch(/200 ms\s+comment\s+: ping/);
    await page.locator(`details.req[id="${anchorOf('6.5/retry-backoff')}"] > summary`).click();
    const hooks = await page.locator('.timeline.hooks').first().innerText();
    expect(hooks).toContain('default retry policy: maxRetries 3, initialDelay 1 s, backoffMultiplier 2');
    expect(hooks).toMatch(/2\s+1005 ms\s+answered 500\s+1003 ms\s+1000 ms/);
    expect(hooks).toMatch(/3\s+3010 ms\s+answered 500\s+2003 ms\s+2000 ms/);
  });

  it('logged no console error or warning and made no request beyond its own file', () => {
    expect(problems).toEqual([]);
  });
});
