// summary.md (verdict line, counts table, findings linked into report.html by anchor) and
// badge.svg (compliance level and score), both read from the same score as every reporter.
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderBadge } from '../../reporters/badge.ts';
import { cell, renderMarkdown } from '../../reporters/markdown.ts';
import { complianceOf } from '../../reporters/score.ts';
import { anchorOf } from '../../reporters/sections.ts';
import { fixtureRun, withVerdicts } from './fixtures.ts';

describe('summary.md', () => {
  const run = fixtureRun();
  const md = renderMarkdown(run);

  it('opens with the compliance verdict and score', () => {
    const c = complianceOf(run);
    expect(c.level).toBe('not-compliant');
    expect(md.split('\n')[0]).toBe(`## ❌ A2A conformance: not compliant, score ${c.score}%`);
    expect(md).toContain('exit 1: 1 requirement(s) failed: 2.2/response-id-equals-request-id');
  });

  it('has a counts table by level with a total row', () => {
    expect(md).toContain('| Level | pass | fail | warn | info | not-applicable | not-exercised | error |');
    expect(md).toContain('| MUST | 2 | 1 | 0 | 0 | 1 | 1 | 1 |');
    expect(md).toContain('| **all** | **3** | **1** | **1** | **1** | **1** | **1** | **1** |');
  });

  it('lists the requirements that need attention, worst first, linked into report.html by anchor', () => {
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && l.includes('](report.html#'));
    expect(rows.map((r) => r.split(' | ')[0])).toEqual(['| FAIL', '| ERROR', '| WARN', '| INFO']);
    const id = '2.2/response-id-equals-request-id';
    expect(rows[0]).toContain(`[${id}](report.html#${anchorOf(id)})`);
    expect(rows[0]).toContain('expected "r1", actual "not-your-id"');
    expect(renderMarkdown(run, { htmlHref: 'https://ci.example/r.html' })).toContain(
      `(https://ci.example/r.html#${anchorOf(id)})`,
    );
  });

  it('folds the not-exercised MUST and SHOULD requirements into a details block', () => {
    expect(md).toContain('<details><summary>1 MUST/SHOULD requirement(s) not exercised');
    expect(md).toContain(
      `- [1/json-rpc-over-http](report.html#${anchorOf('1/json-rpc-over-http')}) (MUST): no check registered`,
    );
  });

  it('keeps table cells on one line with pipes escaped', () => {
    expect(cell('a | b\n  c')).toBe('a \\| b c');
    const r = fixtureRun();
    r.requirements[1]!.checks = [];
    r.requirements[1]!.message = 'line one | still\nline two';
    const row = renderMarkdown(r)
      .split('\n')
      .find((l) => l.startsWith('| FAIL'))!;
    expect(row.endsWith('| line one \\| still line two |')).toBe(true);
  });
});

describe('badge.svg', () => {
  it('shows the level and the score, as valid SVG with no external reference', () => {
    const svg = renderBadge(fixtureRun());
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('A2A conformance: not compliant 42.8%');
    expect(svg).toContain('#d9423a');
    expect(svg.match(/https?:\/\/[^"]*/g)).toEqual(['http://www.w3.org/2000/svg']);
  });

  it('shows a fully compliant partial run in green, marked partial', () => {
    const reqs = withVerdicts([
      ['2.1/jsonrpc-required', 'pass'],
      ['2.1/id-required', 'pass'],
    ]);
    const run = fixtureRun(reqs);
    run.options.only = ['2.1'];
    const svg = renderBadge(run);
    expect(svg).toContain('fully compliant 100% (partial)');
    expect(svg).toContain('#2e9b3a');
  });
});
