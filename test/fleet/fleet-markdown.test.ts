// fleet.md: the verdict line, agents per level, the agents worst first with links to their
// report.html (a name's pipes escaped), missing shards, and the requirements failed most often.
import { describe, expect, it } from 'vitest';
import { renderFleetMarkdown } from '../../reporters/fleet/fleet-markdown.ts';
import { agent, fleetReport } from './fixtures.ts';

describe('renderFleetMarkdown', () => {
  it('puts the verdict, the level counts and the agents worst first with report links', () => {
    const md = renderFleetMarkdown(fleetReport());
    expect(md.split('\n')[0]).toBe(
      '## ⚠️ A2A fleet certification: some agents could not be run: 2 passed, 1 failed, 2 not run of 5',
    );
    expect(md).toContain('| 5 | 2 | 1 | 2 | 1 | 1 | 1 | 1 | 1 |');
    const rows = md.split('\n').filter((l) => /^\| (weather|travel|search|billing) /.test(l));
    expect(rows.map((r) => r.split(' | ')[0]!.slice(2))).toEqual(['weather', 'travel', 'search', 'billing']);
    expect(rows[0]).toContain('not run: killed after 660000 ms');
    expect(rows[1]).toContain(
      '| not compliant | 80% | 5 | 3 | 0 | 0 | 1 | 63.0 s | [report](shard-1/travel/report.html) |',
    );
    expect(md).toContain('| `7/jsonrpc-errors-http-200` | SHOULD | 2 of 5 | search, travel |');
  });

  it('escapes a pipe in a name and names missing shards', () => {
    const report = fleetReport([agent('a|b')]);
    report.missingShards = [2];
    const md = renderFleetMarkdown(report);
    expect(md).toContain('| a\\|b |');
    expect(md).toContain('**Missing shards:** 2/2');
  });
});
