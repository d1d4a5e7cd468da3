// The tool line of summary.md and report.html names the ledger the run was graded against (and
// leaves it out for a result of an older version that has none); report.html names --evidence.
import { describe, expect, it } from 'vitest';
import { htmlData } from '../../reporters/html/html-data.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { toolLabel } from '../../core/tool-label.ts';
import { fixtureRun } from './fixtures.ts';

const ledger = { hash: '0123456789ab', requirements: 317 };

describe('toolLabel', () => {
  it('names the tool, its version and the ledger', () => {
    expect(toolLabel({ name: 'a2a-conformance', version: '0.1.0', ledger })).toBe(
      'a2a-conformance 0.1.0, ledger 0123456789ab',
    );
    expect(toolLabel({ name: 'a2a-conformance', version: '0.1.0' })).toBe('a2a-conformance 0.1.0');
  });

  it('is the tool line of summary.md and report.html', () => {
    const run = fixtureRun(undefined, { tool: { name: 'a2a-conformance', version: '0.1.0', ledger } });
    expect(renderMarkdown(run)).toContain('`a2a-conformance 0.1.0, ledger 0123456789ab`');
    expect(htmlData(run).meta.tool).toBe('a2a-conformance 0.1.0, ledger 0123456789ab');
    const trimmed = fixtureRun(undefined, { options: { ...run.options, evidence: 'failing' } });
    expect(htmlData(trimmed).meta.options).toMatch(/ --evidence failing$/);
  });
});
