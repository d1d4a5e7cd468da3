// A report page opened from disk in Debian's headless Chromium (driven by playwright-core: nothing is
// downloaded), with every console error or warning, page error and request that is not a file: URL
// collected, so a test can assert the page is self-contained and quiet.
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath, chromiumProblem } from './chromium.ts';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];
ARGS.push('--disable-background-networking', '--disable-component-update', '--disable-sync');

/**
 * Debian's Chromium (or CHROMIUM_PATH), headless, with a fresh temporary profile (user data dir) of its
 * own. Missing, it fails the test with the command that installs it (`npm test` installs it first).
 */
export function launchChromium(): Promise<Browser> {
  const problem = chromiumProblem();
  if (problem !== undefined) return Promise.reject(new Error(problem));
  return chromium.launch({ executablePath: chromiumPath(), args: ARGS });
}

/** Opens `url` and waits for the page's script to mark `body[data-ready]`; problems land in `problems`. */
export async function openOfflinePage(
  url: string,
  problems: string[],
): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return { browser, page };
}
