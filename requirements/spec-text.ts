// Reads spec/a2a-jsonrpc-service.md (relative to this module) for the ledger: the numbered section
// headings, and the spec text behind a requirement (its quoted line plus the heading above it).
import { readFileSync } from 'node:fs';
import type { ExternalSource, Requirement, SpecSource } from './types.ts';

export const SPEC_URL = new URL('../spec/a2a-jsonrpc-service.md', import.meta.url);

let cachedLines: readonly string[] | undefined;

/** The spec's lines; index 0 is line 1. */
export function specLines(): readonly string[] {
  cachedLines ??= Object.freeze(readFileSync(SPEC_URL, 'utf8').split(/\r?\n/));
  return cachedLines;
}

export interface SpecHeading {
  /** Section number, e.g. '4.4'. */
  section: string;
  title: string;
  /** 1-based line of the heading. */
  line: number;
  /** The heading line as written, e.g. '### 4.4 tasks/cancel'. */
  text: string;
}

// '## 1. What the service does' and '### 4.4 tasks/cancel' both name a section; the trailing dot
// after a top-level number is the spec's own style.
const HEADING = /^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$/;

/** The numbered headings of the spec, in order. */
export function specHeadings(): readonly SpecHeading[] {
  const headings: SpecHeading[] = [];
  specLines().forEach((text, i) => {
    const m = HEADING.exec(text);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      headings.push({ section: m[1], title: m[2].trim(), line: i + 1, text });
    }
  });
  return headings;
}

export function isSpecSource(source: SpecSource | ExternalSource): source is SpecSource {
  return 'line' in source;
}

/** The numbered heading that a 1-based spec line falls under, or undefined above the first one. */
export function headingOfLine(line: number): SpecHeading | undefined {
  let found: SpecHeading | undefined;
  for (const h of specHeadings()) {
    if (h.line > line) break;
    found = h;
  }
  return found;
}

export interface SpecExcerpt {
  /** The heading the quoted line sits under, or the requirement's section heading for inherited rules. */
  heading: string;
  /** 1-based spec line, absent for rules inherited from JSON-RPC 2.0. */
  line?: number;
  /** The whole spec line, or the external quote. */
  text: string;
  /** Where an inherited rule comes from, e.g. 'JSON-RPC 2.0, section 5.1'. */
  origin?: string;
}

/** The spec text behind a requirement, as data. */
export function specExcerpt(requirement: Requirement): SpecExcerpt {
  const { source } = requirement;
  if (isSpecSource(source)) {
    const text = specLines()[source.line - 1];
    if (text === undefined) throw new Error(`${requirement.id}: spec has no line ${source.line}`);
    const heading = headingOfLine(source.line)?.text ?? '';
    return { heading, line: source.line, text };
  }
  const own = specHeadings().find((h) => h.section === requirement.section);
  return { heading: own?.text ?? '', text: source.quote, origin: source.origin };
}

/** The spec text behind a requirement, as printed by the CLI's `explain`. */
export function specText(requirement: Requirement): string {
  const e = specExcerpt(requirement);
  if (e.line === undefined) {
    return `${e.origin ?? 'external'} (inherited by ${e.heading.replace(/^#+ /, '')}):\n  "${e.text}"`;
  }
  return `${e.heading}\n  line ${e.line}: ${e.text}`;
}
