// How the docs' tests read the project's Markdown: the guides a user reads, their links and heading
// anchors (as GitHub makes them, github-slugger), and the a2a-conformance commands they show, each with
// the file and line it is written at.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The README and the guides of docs/, paths from the root. */
export const GUIDES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The guides, plus the READMEs of the harness and the reference server. */
export const MARKDOWN = [...GUIDES, 'harness/README.md', 'reference-server/README.md'];

export const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

interface Line {
  text: string;
  /** 1-based. */
  line: number;
  inCode: boolean;
}

/** The lines of a Markdown text, each marked inside a fenced code block or not (fences left out). */
function lines(text: string): Line[] {
  let inCode = false;
  const out: Line[] = [];
  text.split('\n').forEach((t, i) => {
    if (/^\s*```/.test(t)) inCode = !inCode;
    else out.push({ text: t, line: i + 1, inCode });
  });
  return out;
}

/** The text outside fenced code blocks and inline code. */
export function prose(text: string): string {
  return lines(text)
    .filter((l) => !l.inCode)
    .map((l) => l.text.replace(/`[^`]*`/g, ''))
    .join('\n');
}

/** The link targets of a Markdown text outside code (`[text](href)`). */
export function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** The anchors a link may name in a Markdown text: its headings' GitHub slugs and explicit ids. */
export function anchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  for (const l of lines(text)) {
    if (l.inCode) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l.text);
    if (heading !== null) found.add(slugger.slug(heading[1]!));
    for (const m of l.text.matchAll(/\b(?:id|name)="([^"]+)"/g)) found.add(m[1]!);
  }
  return found;
}

export interface Example {
  file: string;
  line: number;
  /** The command as written, continuation lines joined, without a YAML `run:` or a trailing comment. */
  command: string;
}

const NPX = /^\s*((?:[A-Z_0-9]+=\S+\s+)*npx\s+(?:--yes\s+)?a2a-conformance\b.*)$/;

/**
 * The a2a-conformance commands of a text: every line of a code block that runs
 * `npx a2a-conformance` (continuations joined), and every inline code span that starts with
 * `[npx] a2a-conformance <command>` and names a flag or `--` (a bare `a2a-conformance run` names the
 * command, it is no example).
 */
export function examples(file: string, text: string): Example[] {
  const found: Example[] = [];
  const all = lines(text);
  for (let i = 0; i < all.length; i += 1) {
    const first = all[i]!;
    if (first.inCode) {
      let joined = first.text;
      while (joined.endsWith('\\') && all[i + 1]?.inCode === true) {
        i += 1;
        joined = `${joined.slice(0, -1)} ${all[i]!.text.trim()}`;
      }
      const m = NPX.exec(joined.replace(/^\s*(?:-\s+)?run:\s*/, ''));
      if (m !== null && !/^\s*#/.test(joined)) found.push({ file, line: first.line, command: m[1]!.trim() });
      continue;
    }
    for (const span of first.text.matchAll(/`([^`]+)`/g)) {
      const code = span[1]!.trim();
      if (/^(?:npx )?a2a-conformance [a-z][\s\S]*\s--(?:[a-z]|\s)/.test(code))
        found.push({ file, line: first.line, command: code });
    }
  }
  return found;
}
