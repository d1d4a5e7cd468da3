// The script of report.html (inlined after page-evidence.js by html-report.ts; runs offline, fetches
// nothing): builds the section-by-verdict matrix, the filters and the requirement list from the
// embedded JSON; an opened requirement gets its evidence from page-evidence.js.
/* global document, window */
'use strict';

const data = JSON.parse(document.getElementById('report-data').textContent);
const rulings = data.rulings;
const { el, chip, pre, requirementBody } = globalThis.a2aReport;

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
  const unverified =
    c.level === 'unverified' && c.unverified.length
      ? el(
          'div',
          { class: 'unverified', id: 'unverified' },
          el('strong', {
            text: 'Not verified (MUST): no MUST requirement failed, but these were not verified',
          }),
          el(
            'ul',
            {},
            c.unverified.map((g) =>
              el(
                'li',
                {},
                `${g.requirements.length} ${g.verdict}: ${g.why} `,
                requirementLinks(g.requirements),
              ),
            ),
          ),
        )
      : null;
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
  document
    .getElementById('header')
    .append(
      banner,
      dialectBox() || '',
      causesBox() || '',
      reasons,
      unverified || '',
      meta,
      trafficBox() || '',
      errors || '',
    );
}

/** The dialect the agent speaks, when it is not this spec's: read right after the verdict. */
function dialectBox() {
  const d = data.dialect;
  if (!d) return null;
  return el(
    'div',
    { class: 'dialect', id: 'dialect' },
    el('strong', { text: `Dialect: ${d.headline}.` }),
    ` ${d.count}, each a root cause below.`,
    el(
      'ul',
      {},
      d.evidence.filter((line) => line.includes(' is served (')).map((line) => el('li', { text: line })),
    ),
  );
}

/** Causes many findings share, largest first, each with links to the requirements it explains. */
function causesBox() {
  const causes = data.rootCauses || [];
  if (!causes.length) return null;
  return el(
    'div',
    { class: 'causes', id: 'root-causes' },
    el('h2', { text: 'Root causes' }),
    el(
      'ol',
      {},
      causes.map((c) =>
        el(
          'li',
          {},
          el('span', { class: 'cause', text: c.headline }),
          el('div', {}, requirementLinks(c.requirements, 20)),
          c.example ? pre(`e.g. ${c.example}`, 'example') : '',
        ),
      ),
    ),
  );
}

function trafficBox() {
  const facts = data.traffic || [];
  if (!facts.length) return null;
  return el(
    'div',
    { id: 'traffic' },
    el('h3', { text: 'Traffic' }),
    el(
      'dl',
      { class: 'meta traffic' },
      facts.map((f) => [el('dt', { text: f.label }), el('dd', { text: f.value })]),
    ),
  );
}

const anchors = new Map(data.requirements.map((r) => [r.id, r.anchor]));

/** Links to requirements of the list below (`#req-<id>`), at most `max`, then a count. */
function requirementLinks(ids, max = 12) {
  const links = ids
    .slice(0, max)
    .flatMap((id, i) => [i > 0 ? ', ' : '', el('a', { href: `#${anchors.get(id) || ''}`, text: id })]);
  return el('span', { class: 'ids' }, links, ids.length > max ? ` and ${ids.length - max} more` : '');
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
      node.append(requirementBody(r, rulings));
    }
  });
  return node;
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
