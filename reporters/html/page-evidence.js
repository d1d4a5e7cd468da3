// Evidence panes of report.html (inlined before page.js by html-report.ts): DOM helpers and the body of
// an opened requirement: spec text, rulings, each check's expected vs actual, wire exchanges, the SSE
// event timeline and the webhook attempt timeline. Text only ever goes through textContent.
/* global document */
'use strict';

/** el('div', {class: 'x'}, child, 'text', ...): a DOM element; strings become text nodes. */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return node;
}

const chip = (verdict) => el('span', { class: `chip v-${verdict}`, text: verdict });
const pre = (text, cls) => el('pre', { class: cls || '' }, text);

function requirementBody(r, rulings) {
  const body = el('div', { class: 'body' });
  if (r.spec) {
    const where = r.spec.line ? `spec line ${r.spec.line}` : r.spec.origin || 'inherited rule';
    body.append(
      el('h4', { text: 'Spec text' }),
      el(
        'blockquote',
        { class: 'spec' },
        el('div', { class: 'where', text: `${r.spec.heading} (${where})` }),
        r.spec.text,
      ),
    );
  }
  for (const id of r.rulings) {
    const ruling = rulings[id];
    body.append(el('h4', { text: `Ruling ${id}${ruling ? ` ${ruling.title}` : ''}` }));
    body.append(ruling ? pre(ruling.body, 'ruling') : el('p', { text: 'not found in CLARIFICATIONS.md' }));
  }
  if (r.message) body.append(el('p', { class: 'msg', text: r.message }));
  if (r.checks.length === 0) body.append(el('p', { class: 'none', text: 'no check result' }));
  for (const c of r.checks) body.append(checkNode(c));
  return body;
}

function checkNode(c) {
  const node = el(
    'div',
    { class: `check s-${c.status}` },
    el(
      'h4',
      {},
      chip(c.status),
      ` ${c.title} `,
      el('span', { class: 'dim', text: `${c.durationMs} ms, ${c.assertions} assertion(s)` }),
    ),
  );
  if (c.message) node.append(el('p', { class: 'msg', text: c.message }));
  if (c.expected !== undefined) node.append(expectedActual(c.expected, c.actual));
  if (c.failedAssertions.length > 1) {
    node.append(el('h5', { text: 'failed assertions' }));
    for (const a of c.failedAssertions)
      node.append(el('p', { class: 'lbl', text: a.label }), expectedActual(a.expected, a.actual));
  }
  if (c.notes.length)
    node.append(
      el('h5', { text: 'notes' }),
      el(
        'ul',
        {},
        c.notes.map((n) => el('li', { text: n })),
      ),
    );
  node.append(el('h5', { text: 'reproduce' }), pre(c.reproduce, 'cmd'));
  if (c.curl) node.append(pre(c.curl, 'cmd'));
  if (c.file) node.append(el('p', { class: 'dim', text: `check in ${c.file}` }));
  node.append(exchangesNode(c), ...c.streams.map(streamNode), ...c.webhooks.map(webhookNode));
  if (c.evidenceNote) node.append(el('p', { class: 'dim', text: c.evidenceNote }));
  return node;
}

function expectedActual(expected, actual) {
  return el(
    'table',
    { class: 'ea' },
    el('tr', {}, el('th', { text: 'expected' }), el('td', {}, pre(expected))),
    el('tr', {}, el('th', { text: 'actual' }), el('td', {}, pre(actual))),
  );
}

function exchangesNode(c) {
  if (c.exchanges.length === 0) return '';
  const more = c.omittedExchanges ? ` (${c.omittedExchanges} more in report.json)` : '';
  return el(
    'div',
    { class: 'exchanges' },
    el('h5', { text: `wire exchanges${more}` }),
    c.exchanges.map((x) =>
      el(
        'details',
        { class: 'ex' },
        el(
          'summary',
          {},
          el('code', { text: x.id }),
          ` ${x.kind} `,
          x.request.split('\n')[0],
          ` -> ${x.status ?? x.error ?? '?'} (${x.totalMs} ms)`,
        ),
        el('div', { class: 'pair' }, pre(x.request, 'wire'), pre(x.response, 'wire')),
      ),
    ),
  );
}

function streamNode(s) {
  const end = s.points.length ? s.points[s.points.length - 1].atMs || 1 : 1;
  const rows = s.points.map((p) =>
    el(
      'tr',
      { class: `p-${p.kind}${p.final ? ' final' : ''}${p.error ? ' err' : ''}` },
      el('td', { class: 'num', text: `${p.atMs} ms` }),
      el(
        'td',
        {},
        el('span', { class: 'bar', style: `width:${Math.max(1, Math.round((100 * p.atMs) / end))}%` }),
      ),
      el('td', { text: p.kind }),
      el('td', { text: p.label }),
    ),
  );
  const more = s.omitted ? ` (${s.omitted} more points in report.json)` : '';
  return el(
    'div',
    { class: 'timeline sse' },
    el('h5', {
      text: `SSE timeline of ${s.exchangeId}: HTTP ${s.status ?? '?'}, ${s.contentType ?? 'no content type'}, closed by ${s.closedBy}${more}`,
    }),
    el(
      'table',
      {},
      el(
        'tr',
        {},
        ['at', '', 'kind', 'what'].map((h) => el('th', { text: h })),
      ),
      rows,
    ),
  );
}

function webhookNode(w) {
  const p = w.policy;
  const policy = `${p.source} retry policy: maxRetries ${p.maxRetries}, initialDelay ${p.initialDelay} s, backoffMultiplier ${p.backoffMultiplier}`;
  const rows = w.attempts.map((a) =>
    el(
      'tr',
      {},
      el('td', { class: 'num', text: String(a.attempt) }),
      el('td', { class: 'num', text: `${a.atMs} ms` }),
      el('td', { text: a.outcome }),
      el('td', { class: 'num', text: a.measuredDelayMs === undefined ? '' : `${a.measuredDelayMs} ms` }),
      el('td', { class: 'num', text: a.expectedDelayMs === undefined ? '' : `${a.expectedDelayMs} ms` }),
    ),
  );
  const head = ['attempt', 'at', 'outcome', 'measured delay', 'expected delay'].map((h) =>
    el('th', { text: h }),
  );
  return el(
    'div',
    { class: 'timeline hooks' },
    el('h5', { text: `webhook ${w.event}, delivery ${w.deliveryId} to ${w.path}` }),
    el('p', { class: 'dim', text: policy }),
    el('table', {}, el('tr', {}, head), rows),
  );
}

globalThis.a2aReport = { el, chip, pre, requirementBody };
