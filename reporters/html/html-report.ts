// report.html: one self-contained page that opens offline (no network, no external asset): inline
// CSS and script (page.css, page-evidence.js, page.js), the data of html-data.ts embedded as JSON, and a Content
// Security Policy that forbids every fetch, so that target-written evidence can never load anything.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RunResult } from '../../core/types.ts';
import { escapeXml } from '../xml.ts';
import { htmlData, type HtmlData } from './html-data.ts';

const CSS = readFileSync(new URL('./page.css', import.meta.url), 'utf8');
// Each file runs in a function of its own so their top-level names cannot collide; page-evidence.js
// hands its helpers to page.js through globalThis.a2aReport.
const SCRIPT = ['page-evidence.js', 'page.js']
  .map((file) => `(() => {\n${readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')}})();\n`)
  .join('');

/**
 * JSON inside <script>: `<` is escaped so that no `</script>` or `<!--` in the evidence can end
 * the block; U+2028/2029 too, for engines that treat them as line ends.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function csp(script: string): string {
  const hash = createHash('sha256').update(script).digest('base64');
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/**
 * The opening of a self-contained report page, up to its <noscript> note: a CSP that admits only
 * `script` (by its hash), the stylesheet, the title; `dataFile` names where the same data is.
 */
export function pageOpening(title: string, css: string, script: string, dataFile: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp(script)}">
<link rel="icon" href="data:,">
<title>${escapeXml(title)}</title>
<style>
${css}</style>
</head>
<body>
<h1>${escapeXml(title)}</h1>
<noscript><p>This report renders its tables with JavaScript; the same data is in ${dataFile}.</p></noscript>`;
}

export function renderHtmlPage(data: HtmlData): string {
  const script = `\n${SCRIPT}`;
  // Said before anything else, and without script: the page must not hide verification off.
  const connection =
    data.connection.length === 0
      ? ''
      : `\n<ul id="connection">${data.connection.map((l) => `<li class="${l.tone}">${l.tone === 'plain' ? '' : `<strong>${l.tone.toUpperCase()}</strong> `}${escapeXml(l.text)}</li>`).join('')}</ul>`;
  return `${pageOpening(data.title, CSS, script, 'report.json')}${connection}
<div id="header"></div>
<h2>Sections by verdict</h2>
<div id="matrix"></div>
<h2>Requirements</h2>
<div id="filters"></div>
<div id="requirements"></div>
<script type="application/json" id="report-data">${embedJson(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}

export function renderHtml(result: RunResult): string {
  return renderHtmlPage(htmlData(result));
}
