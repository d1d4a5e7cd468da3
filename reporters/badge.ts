// badge.svg: a shields-style badge with the compliance level reached and the score
// (reporters/score.ts); self-contained SVG, no fonts or images fetched.
import type { RunResult } from '../core/types.ts';
import { complianceOf, formatScore, type Compliance } from './score.ts';
import { escapeXml } from './xml.ts';

const COLOURS: Record<Compliance['level'], string> = {
  'fully-compliant': '#2e9b3a',
  'must-compliant': '#8a9a1b',
  // shields.io's lightgrey: neither a pass nor a violation.
  unverified: '#9f9f9f',
  'not-compliant': '#d9423a',
};

const LABEL = 'A2A conformance';

// Verdana 11px averages about 6.6 px per character; the text is also given textLength so that
// every renderer fits it to the box measured here.
function textWidth(text: string): number {
  return Math.round(text.length * 6.6) + 12;
}

export function badgeText(c: Compliance): string {
  return `${c.label} ${formatScore(c.score)}${c.partial ? ' (partial)' : ''}`;
}

export function renderBadge(result: RunResult): string {
  const c = complianceOf(result);
  const value = badgeText(c);
  const lw = textWidth(LABEL);
  const vw = textWidth(value);
  const w = lw + vw;
  const title = escapeXml(`${LABEL}: ${value}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${title}">
  <title>${title}</title>
  <rect width="${w}" height="20" rx="3" fill="#555"/>
  <rect x="${lw}" width="${vw}" height="20" rx="3" fill="${COLOURS[c.level]}"/>
  <rect x="${lw}" width="4" height="20" fill="${COLOURS[c.level]}"/>
  <g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
    <text x="${lw / 2}" y="14" textLength="${lw - 12}">${escapeXml(LABEL)}</text>
    <text x="${lw + vw / 2}" y="14" textLength="${vw - 12}">${escapeXml(value)}</text>
  </g>
</svg>
`;
}
