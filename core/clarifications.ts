// Reads the rulings of CLARIFICATIONS.md (sections headed `### C-NN Title`) so `explain` and the
// reporters can show the text of the rulings a requirement cites.
import { readFileSync } from 'node:fs';

export const CLARIFICATIONS_FILE = new URL('../CLARIFICATIONS.md', import.meta.url);

export interface Ruling {
  id: string;
  title: string;
  /** The section's text after its heading, up to the next heading of level 2 or 3. */
  body: string;
}

const HEADING = /^### (C-\d+)\s+(.*)$/;

export function parseClarifications(markdown: string): Map<string, Ruling> {
  const rulings = new Map<string, Ruling>();
  let current: { id: string; title: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (current)
      rulings.set(current.id, {
        id: current.id,
        title: current.title,
        body: current.lines.join('\n').trim(),
      });
    current = undefined;
  };
  for (const line of markdown.split(/\r?\n/)) {
    const m = HEADING.exec(line);
    if (m) {
      flush();
      current = { id: m[1]!, title: m[2]!.trim(), lines: [] };
    } else if (/^#{1,3} /.test(line)) {
      flush();
    } else {
      current?.lines.push(line);
    }
  }
  flush();
  return rulings;
}

export function loadClarifications(file: URL | string = CLARIFICATIONS_FILE): Map<string, Ruling> {
  try {
    return parseClarifications(readFileSync(file, 'utf8'));
  } catch {
    return new Map();
  }
}
