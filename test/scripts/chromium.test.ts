// What the browser tests need beyond npm (test/support/chromium.ts): where Chromium is looked for, and
// that a missing one reads as the command that installs it, never as a skip.
import { describe, expect, it } from 'vitest';
import { chromiumPath, chromiumProblem, installCommand, obtainChromium } from '../support/chromium.ts';

describe('the Chromium of the browser tests', () => {
  it("is Debian's unless CHROMIUM_PATH names another", () => {
    expect(chromiumPath({})).toBe('/usr/bin/chromium');
    expect(chromiumPath({ CHROMIUM_PATH: '' })).toBe('/usr/bin/chromium');
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chrome/chrome' })).toBe('/opt/chrome/chrome');
  });

  it('missing, is a problem that names the path and the one command to run', () => {
    const problem = chromiumProblem({ CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(problem).toBe(
      `the browser tests need Chromium at /nonexistent/chromium, which is missing: ${installCommand()}`,
    );
    expect(installCommand()).toMatch(
      /^(?:sudo )?apt-get install -y --no-install-recommends chromium$|CHROMIUM_PATH=\/path\/to\/chromium npm test$/,
    );
  });

  it('present, is no problem, and obtaining it again does nothing', () => {
    // `process.execPath` stands for an installed browser: any file that exists.
    expect(chromiumProblem({ CHROMIUM_PATH: process.execPath })).toBeUndefined();
    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = process.execPath;
    const lines: string[] = [];
    try {
      expect(obtainChromium((l) => lines.push(l))).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
    }
    expect(lines).toEqual([]);
  });
});
