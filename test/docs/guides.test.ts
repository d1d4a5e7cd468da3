// The README starts the reading and the guides in docs/ carry it: every guide is linked from the
// README, and every relative link of the README and the guides points at a file of the project.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUIDES = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The relative link targets of a Markdown text (no scheme, no pure anchor), without their anchor. */
function relativeLinks(text: string): string[] {
  const outsideCode = text.replace(/```[\s\S]*?```/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith('#'))
    .map((href) => href.split('#')[0]!);
}

describe('the README and the guides', () => {
  it('links every guide of docs/ from the README', () => {
    expect(GUIDES.length).toBeGreaterThan(5);
    for (const guide of GUIDES) expect(README, guide).toContain(`(docs/${guide})`);
  });

  it.each(['README.md', ...GUIDES.map((g) => `docs/${g}`)])('%s links only to files that exist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const href of relativeLinks(text)) {
      expect(existsSync(join(ROOT, dirname(file), href)), `${file} -> ${href}`).toBe(true);
    }
  });
});
