// The script of report.html (inlined by html-report.ts; runs offline, fetches nothing): builds the
// section-by-verdict matrix, the filters and the requirement list from the embedded JSON, and renders
// a requirement's evidence (spec text, rulings, expected vs actual, exchanges, timelines) when opened.
// Every text goes through textContent: the evidence is written by the target and is never markup.
/* global document, window */
'use strict';

const data = JSON.parse(document.getElementById('report-data').textContent);
const rulings = data.rulings;

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

function renderHeader() {
  const c = data.compliance;
  const score = c.score === null ? 'no score' : `score ${c.score}%`;
  const banner = el(
    'div',
    { class: `banner c-${c.level}`, id: 'compliance' },
    el('strong', { text: c.label }),
    ` ${score} (${c.passed}/${c.counted} MUST and SHOULD requirements pass)${c.partial ? ', partial run (--only)' : ''}`,
  );
  const reasons = el(
    'ul',
    { class: 'reasons' },
    c.reasons.map((r) => el('li', { text: r })),
  );
  const meta = el(
    'dl',
    { class: 'meta' },
    Object.entries(data.meta).map(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]),
  );
  const errors = data.harnessErrors.length
    ? el(
        'div',
        { class: 'harness' },
        el('h2', { text: 'Harness errors' }),
        pre(data.harnessErrors.join('\n')),
      )
    : null;
  document.getElementById('header').append(banner, reasons, meta, errors || '');
}

function renderMatrix() {
  const head = el(
    'tr',
    {},
    el('th', { text: 'section' }),
    data.verdicts.map((v) => el('th', {}, chip(v))),
  );
  const rows = data.sections.map((s) =>
    el(
      'tr',
      {},
      el('th', { class: 'sec', text: s.name }),
      data.verdicts.map((v) =>
        el(
          'td',
          { class: s.counts[v] ? `n v-${v}` : 'zero' },
          s.counts[v]
            ? el('button', {
                type: 'button',
                class: 'cell',
                'data-section': s.section,
                'data-verdict': v,
                title: `show the ${v} requirements of ${s.name}`,
                text: String(s.counts[v]),
                onclick: () => focusCell(s.section, v),
              })
            : '',
        ),
      ),
    ),
  );
  document.getElementById('matrix').append(el('table', {}, el('thead', {}, head), el('tbody', {}, rows)));
}

function checkbox(name, value, label) {
  return el(
    'label',
    { class: `f f-${value}` },
    el('input', { type: 'checkbox', name, value, checked: true, onchange: applyFilters }),
    label,
  );
}

function renderFilters() {
  const levels = ['MUST', 'SHOULD', 'MAY', 'INFO'];
  const sections = el(
    'select',
    { id: 'section-filter', onchange: applyFilters },
    el('option', { value: '', text: 'all sections' }),
    data.sections.map((s) => el('option', { value: s.section, text: s.name })),
  );
  const search = el('input', {
    id: 'search',
    type: 'search',
    placeholder: 'id or text',
    oninput: applyFilters,
  });
  const reset = el('button', {
    type: 'button',
    id: 'reset-filters',
    text: 'show all',
    onclick: resetFilters,
  });
  document.getElementById('filters').append(
    el(
      'div',
      { class: 'frow' },
      'verdict: ',
      data.verdicts.map((v) => checkbox('verdict', v, chip(v))),
    ),
    el(
      'div',
      { class: 'frow' },
      'level: ',
      levels.map((l) => checkbox('level', l, l)),
    ),
    el('div', { class: 'frow' }, sections, search, reset),
    el('p', { id: 'shown', 'aria-live': 'polite' }),
  );
}

function checked(name) {
  return new Set([...document.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value));
}

function applyFilters() {
  const verdicts = checked('verdict');
  const levels = checked('level');
  const section = document.getElementById('section-filter').value;
  const text = document.getElementById('search').value.trim().toLowerCase();
  let shown = 0;
  for (const node of document.querySelectorAll('details.req')) {
    const r = node.dataset;
    const visible =
      verdicts.has(r.verdict) &&
      levels.has(r.level) &&
      (section === '' || r.section === section) &&
      (text === '' || r.search.includes(text));
    node.hidden = !visible;
    if (visible) shown += 1;
  }
  for (const group of document.querySelectorAll('section.group')) {
    group.hidden = group.querySelector('details.req:not([hidden])') === null;
  }
  document.getElementById('shown').textContent = `${shown} of ${data.requirements.length} requirements shown`;
}

function setAll(name, on) {
  for (const i of document.querySelectorAll(`input[name=${name}]`)) i.checked = on(i.value);
}

function resetFilters() {
  setAll('verdict', () => true);
  setAll('level', () => true);
  document.getElementById('section-filter').value = '';
  document.getElementById('search').value = '';
  applyFilters();
}

function focusCell(section, verdict) {
  resetFilters();
  setAll('verdict', (v) => v === verdict);
  document.getElementById('section-filter').value = section;
  applyFilters();
  document.getElementById('requirements').scrollIntoView();
}

function renderList() {
  const root = document.getElementById('requirements');
  for (const s of data.sections) {
    const reqs = data.requirements.filter((r) => r.section === s.section);
    root.append(el('section', { class: 'group' }, el('h3', { text: s.name }), reqs.map(requirementNode)));
  }
}

function requirementNode(r) {
  const mark = r.baseline
    ? el('span', { class: `bl bl-${r.baseline}`, text: `baseline: ${r.baseline}` })
    : '';
  const summary = el(
    'summary',
    {},
    chip(r.verdict),
    el('span', { class: 'lvl', text: r.level }),
    el('code', { class: 'rid', text: r.id }),
    mark,
    el('span', { class: 'beh', text: r.behaviour }),
  );
  const node = el(
    'details',
    {
      class: 'req',
      id: r.anchor,
      'data-verdict': r.verdict,
      'data-level': r.level,
      'data-section': r.section,
      'data-search': `${r.id} ${r.behaviour}`.toLowerCase(),
    },
    summary,
  );
  node.addEventListener('toggle', () => {
    if (node.open && !node.dataset.rendered) {
      node.dataset.rendered = '1';
      node.append(requirementBody(r));
    }
  });
  return node;
}

function requirementBody(r) {
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

/** Opens the requirement a link points at (summary.md links to #req-<id>), even when filtered out. */
function openFromHash() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const node = id ? document.getElementById(id) : null;
  if (!node || !node.classList.contains('req')) return;
  if (node.hidden) resetFilters();
  node.open = true;
  node.scrollIntoView();
}

renderHeader();
renderMatrix();
renderFilters();
renderList();
applyFilters();
openFromHash();
window.addEventListener('hashchange', openFromHash);
document.body.dataset.ready = 'true';
