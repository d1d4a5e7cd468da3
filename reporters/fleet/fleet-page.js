// The script of fleet.html (inlined by fleet-html.ts; runs offline, fetches nothing): the summary,
// the agents table (sorted by clicking a column head, filtered by level, status and text, each agent
// linking to its report.html), the requirements failed most often and the changes since --previous.
/* global document */
'use strict';

const data = JSON.parse(document.getElementById('fleet-data').textContent);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') node.textContent = v;
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) node.append(c);
  return node;
}

const levelRank = Object.fromEntries(data.levels.map((l, i) => [l.key, data.levels.length - i]));
const score = (s) => (s === null ? 'n/a' : `${s}%`);

const COLUMNS = [
  { key: 'name', label: 'agent', value: (a) => a.name.toLowerCase() },
  { key: 'level', label: 'level', value: (a) => (a.level === null ? 0 : levelRank[a.level]) },
  { key: 'score', label: 'score', value: (a) => (a.score === null ? -1 : a.score) },
  { key: 'fail', label: 'fail', value: (a) => a.fail },
  { key: 'warn', label: 'warn', value: (a) => a.warn },
  { key: 'notExercised', label: 'not exercised', value: (a) => a.notExercised },
  { key: 'error', label: 'error', value: (a) => a.error },
  { key: 'exitCode', label: 'exit', value: (a) => a.exitCode },
  { key: 'wallMs', label: 'duration', value: (a) => a.wallMs },
];

function renderSummary() {
  const s = data.summary;
  const banner = el('div', { class: `banner x-${s.exitCode}`, id: 'verdict' }, s.exitReason);
  const counts = el(
    'ul',
    { class: 'levels' },
    data.levels.map((l) =>
      el('li', {}, el('span', { class: `lv c-${l.key}`, text: l.label }), ` ${s.byLevel[l.key]}`),
    ),
    el('li', {}, el('span', { class: 'lv c-none', text: 'no report' }), ` ${s.byLevel.none}`),
  );
  const meta = el(
    'dl',
    { class: 'meta' },
    Object.entries(data.meta).map(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]),
  );
  document.getElementById('summary').append(banner, counts, meta);
}

const state = { sort: 'level', dir: 1, text: '', levels: new Set(), statuses: new Set() };

function checkbox(name, value, label, set) {
  const box = el('input', { type: 'checkbox', name, value, checked: '' });
  set.add(value);
  box.addEventListener('change', () => {
    if (box.checked) set.add(value);
    else set.delete(value);
    renderRows();
  });
  return el('label', { class: 'f' }, box, ` ${label}`);
}

function renderFilters() {
  const text = el('input', { type: 'search', id: 'text', placeholder: 'agent, target or agent id' });
  text.addEventListener('input', () => {
    state.text = text.value.trim().toLowerCase();
    renderRows();
  });
  const levels = [...data.levels, { key: 'none', label: 'no report' }].map((l) =>
    checkbox('level', l.key, l.label, state.levels),
  );
  const statuses = ['passed', 'failed', 'not-run'].map((s) => checkbox('status', s, s, state.statuses));
  document
    .getElementById('filters')
    .append(
      el('div', { class: 'frow' }, 'level: ', levels),
      el('div', { class: 'frow' }, 'status: ', statuses),
      el('div', { class: 'frow' }, text),
    );
}

function renderHead() {
  const row = el(
    'tr',
    {},
    COLUMNS.map((c) => {
      const button = el('button', { type: 'button', class: 'sort', 'data-sort': c.key, text: c.label });
      button.addEventListener('click', () => {
        state.dir = state.sort === c.key ? -state.dir : c.key === 'name' ? 1 : -1;
        state.sort = c.key;
        renderRows();
      });
      return el('th', {}, button);
    }),
  );
  document.querySelector('#agents thead').append(row);
}

function row(a) {
  const name = a.href === null ? el('span', { text: a.name }) : el('a', { href: a.href, text: a.name });
  const level = el('span', { class: `lv c-${a.level ?? 'none'}`, text: a.levelLabel });
  const cells = [
    el(
      'td',
      { title: `${a.target} agent ${a.agentId}` },
      name,
      a.level === null ? el('div', { class: 'why', text: a.reason }) : null,
    ),
    el('td', {}, level, a.partial ? ' partial' : ''),
    el('td', { class: 'num', text: score(a.score) }),
    ...['fail', 'warn', 'notExercised', 'error'].map((k) => el('td', { class: 'num', text: String(a[k]) })),
    el('td', { class: 'num', text: String(a.exitCode) }),
    el('td', { class: 'num', text: `${(a.wallMs / 1000).toFixed(1)} s` }),
  ];
  return el('tr', { 'data-name': a.name }, cells);
}

function visible(a) {
  if (!state.levels.has(a.level ?? 'none') || !state.statuses.has(a.status)) return false;
  if (state.text === '') return true;
  return [a.name, a.target, a.agentId].some((t) => t.toLowerCase().includes(state.text));
}

function renderRows() {
  const column = COLUMNS.find((c) => c.key === state.sort);
  const sorted = [...data.agents].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * state.dir || a.name.localeCompare(b.name);
  });
  const shown = sorted.filter(visible);
  document.querySelector('#agents tbody').replaceChildren(...shown.map(row));
  for (const b of document.querySelectorAll('button.sort')) {
    b.setAttribute(
      'aria-sort',
      b.dataset.sort === state.sort ? (state.dir > 0 ? 'ascending' : 'descending') : 'none',
    );
  }
  document.getElementById('shown').textContent = `${shown.length} of ${data.agents.length} agents shown`;
}

function renderRequirements() {
  const host = document.getElementById('requirements');
  if (data.requirements.length === 0) {
    host.append(el('p', { text: 'No requirement failed on any agent.' }));
    return;
  }
  const rows = data.requirements.map((r) =>
    el(
      'tr',
      {},
      el('td', {}, el('code', { text: r.id })),
      el('td', { text: r.level }),
      el('td', { class: 'num', text: `${r.agents.length} of ${data.summary.agents}` }),
      el('td', { text: r.agents.join(', ') }),
    ),
  );
  const head = el(
    'tr',
    {},
    ['requirement', 'level', 'agents failing', 'which'].map((t) => el('th', { text: t })),
  );
  host.append(el('table', { class: 'grid' }, el('thead', {}, head), el('tbody', {}, rows)));
}

function renderChanges() {
  const c = data.changes;
  if (c === null) return;
  const host = document.getElementById('changes');
  const line = (x) =>
    el(
      'li',
      {},
      el('strong', { text: x.name }),
      ` ${x.before} → ${x.after}`,
      x.newlyFailing.length ? ` · newly failing: ${x.newlyFailing.join(', ')}` : '',
      x.nowPassing.length ? ` · now passing: ${x.nowPassing.join(', ')}` : '',
    );
  // el() flattens the optional parts (append() would print an array as text).
  host.append(
    el(
      'div',
      {},
      el('h2', { text: `Changes since ${c.previous}` }),
      el('p', {
        text: `${c.regressed.length} regressed, ${c.fixed.length} fixed, ${c.added.length} added, ${c.removed.length} removed`,
      }),
      c.regressed.length
        ? [el('h3', { text: 'Regressed' }), el('ul', { id: 'regressed' }, c.regressed.map(line))]
        : [],
      c.fixed.length ? [el('h3', { text: 'Fixed' }), el('ul', { id: 'fixed' }, c.fixed.map(line))] : [],
      c.added.length ? el('p', { text: `Added: ${c.added.join(', ')}` }) : null,
      c.removed.length ? el('p', { text: `Removed: ${c.removed.join(', ')}` }) : null,
      c.newlyFailing.length
        ? el('p', { text: `Requirements newly failing across the fleet: ${c.newlyFailing.join(', ')}` })
        : null,
    ),
  );
}

renderSummary();
renderChanges();
renderFilters();
renderHead();
renderRows();
renderRequirements();
document.body.dataset.ready = 'true';
