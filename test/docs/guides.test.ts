// The README starts the reading and the guides in docs/ carry it: every guide is linked from the
// README, every relative link and #anchor of the guides and the two module READMEs resolves, and what
// they say of the report files and the options is what the tables that define them say
// (core/report-files.ts, harness/option-table.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FILE_NAMES } from '../../core/report-files.ts';
import { buildProgram } from '../../harness/cli/program.ts';
import { anchors, GUIDES, links, MARKDOWN, prose, read, ROOT } from './markdown.ts';

const README = read('README.md');

describe('the README and the guides', () => {
  it('links every guide of docs/ from the README', () => {
    const guides = GUIDES.filter((g) => g.startsWith('docs/'));
    expect(guides.length).toBeGreaterThan(5);
    for (const guide of guides) expect(README, guide).toContain(`(${guide})`);
  });

  it.each(MARKDOWN)('%s links only to files and anchors that exist', (file) => {
    const broken: string[] = [];
    for (const href of links(read(file))) {
      if (/^[a-z]+:/i.test(href)) continue;
      const [path = '', anchor] = href.split('#');
      const target = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, target))) {
        broken.push(`${href} (no file ${target})`);
        continue;
      }
      if (anchor === undefined || !target.endsWith('.md') || statSync(join(ROOT, target)).isDirectory())
        continue;
      if (!anchors(read(target)).has(anchor)) broken.push(`${href} (no heading #${anchor} in ${target})`);
    }
    expect(broken).toEqual([]);
  });
});

const NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** Every count of report files a text states: "seven report files", "the six files", "agent's 6 reports". */
function statedCounts(text: string): Array<{ said: string; count: number }> {
  const word = `(${NUMBERS.join('|')}|\\d+)`;
  const re = new RegExp(
    `\\b${word} report files\\b|\\b(?:the|its|agent's) ${word} (?:files|reports)\\b|\\b${word} reports per\\b`,
    'gi',
  );
  return [...text.matchAll(re)].map((m) => {
    const n = (m[1] ?? m[2] ?? m[3]!).toLowerCase();
    return { said: m[0], count: /^\d+$/.test(n) ? Number(n) : NUMBERS.indexOf(n) + 1 };
  });
}

/** The .ts sources whose comments and help may speak of the report files. */
const SOURCES = [
  'harness/runs.ts',
  'harness/cli/fleet-command.ts',
  'harness/cli/shared.ts',
  'harness/fleet/fleet-run.ts',
  'harness/fleet/agent-report.ts',
  'harness/fleet/agent-run.ts',
  'reporters/index.ts',
  'harness/option-table.ts',
];

describe('what the guides say of the report files', () => {
  it.each([...MARKDOWN, ...SOURCES])('%s counts them right wherever it counts them', (file) => {
    for (const { said, count } of statedCounts(read(file)))
      expect(count, `${file}: "${said}"`).toBe(REPORT_FILE_NAMES.length);
  });

  it.each(MARKDOWN)('%s names all of them wherever it lists them', (file) => {
    // A paragraph with four names or more in a row (`report.json`, `junit.xml`, ...) lists them all
    // (three may be those that show one thing: `console.txt`, `summary.md`, `report.html`).
    const name = `(?:${REPORT_FILE_NAMES.map((f) => f.replace('.', '\\.')).join('|')})`;
    const list = new RegExp(`${name}(?:[\\s\`,]*(?:and\\s+)?\`?${name}){3,}`);
    for (const block of read(file).split(/\n\s*\n/)) {
      if (!list.test(block)) continue;
      const missing = REPORT_FILE_NAMES.filter((f) => !block.includes(f));
      expect(missing, `${file}: ${block.slice(0, 120)}`).toEqual([]);
    }
  });

  it('are each described in the reports guide', () => {
    const rows = read('docs/reports.md')
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .join('\n');
    for (const name of REPORT_FILE_NAMES) expect(rows, name).toContain(`\`${name}\``);
  });

  it('are all named by the --out help of every command that writes them', () => {
    const program = buildProgram({ out: () => undefined, err: () => undefined, env: {} }, () => undefined);
    const commands = [...program.commands, ...program.commands.flatMap((c) => c.commands)];
    const writers = commands.filter((c) => c.options.some((o) => o.long === '--out'));
    expect(writers.map((c) => c.name())).toEqual(expect.arrayContaining(['run', 'receiver', 'client']));
    for (const command of writers.filter((c) => c.parent?.name() !== 'fleet' || c.name() === 'run')) {
      const help = command.options.find((o) => o.long === '--out')!.description;
      for (const name of REPORT_FILE_NAMES) expect(help, `${command.name()} --out`).toContain(name);
    }
  });
});

describe('the install lines', () => {
  it('name the tarball npm pack writes for this version', () => {
    const { version } = JSON.parse(read('package.json')) as { version: string };
    const named = MARKDOWN.flatMap((f) => [...read(f).matchAll(/a2a-conformance-([\w.-]+?)\.tgz/g)]);
    expect(named.length).toBeGreaterThan(0);
    for (const m of named) expect(m[1], m[0]).toBe(version);
  });
});

/** The harness's sources, the examples and the Action: where an environment variable is read. */
const SOURCES_TEXT = ['harness', 'reference-server', 'reporters', 'core', 'examples']
  .flatMap((dir) =>
    (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
      .filter((f) => /\.(ts|mjs)$/.test(f))
      .map((f) => read(`${dir}/${f}`)),
  )
  .concat(read('action.yml'))
  .join('\n');

describe('the option reference', () => {
  it('lists every option of run, those of the command line alone included', () => {
    const program = buildProgram({ out: () => undefined, err: () => undefined, env: {} }, () => undefined);
    const run = program.commands.find((c) => c.name() === 'run')!;
    const reference = readFileSync(join(ROOT, 'docs/options.md'), 'utf8');
    const flags = run.options.map((o) => o.long!).filter((f) => f !== '--version');
    expect(flags).toEqual(expect.arrayContaining(['--quiet', '--verbose', '--config']));
    for (const flag of flags) expect(reference, flag).toMatch(new RegExp(`^\\| \`${flag}[ \`]`, 'm'));
  });

  it.each(MARKDOWN)('%s names in its tables only flags the CLI has', (file) => {
    const program = buildProgram({ out: () => undefined, err: () => undefined, env: {} }, () => undefined);
    const all = (c: typeof program): string[] => [
      ...c.options.map((o) => o.long!),
      ...c.commands.flatMap((sub) => all(sub)),
    ];
    const flags = new Set([...all(program), '--help']);
    const rows = read(file)
      .split('\n')
      .filter((l) => l.startsWith('|'));
    for (const row of rows)
      for (const [flag] of row.matchAll(/(?<=`)--[a-z][a-z-]*/g))
        expect(flags.has(flag), `${file}: ${flag}`).toBe(true);
  });

  it.each(MARKDOWN)('%s names only environment variables the harness reads', (file) => {
    // The variables in code spans (`A2A_TARGET`): each is in the harness's sources or the Action.
    for (const [, name] of read(file).matchAll(/`(A2A_[A-Z0-9_]+)/g))
      expect(SOURCES_TEXT, `${file}: ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('is what the guides send a reader to for options not shown in full', () => {
    expect(prose(README)).toContain('[the option reference](docs/options.md)');
  });
});
