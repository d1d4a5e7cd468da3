// Parsing rulings out of CLARIFICATIONS.md (core/clarifications.ts) for `explain`.
import { describe, expect, it } from 'vitest';
import { loadClarifications, parseClarifications } from '../../core/clarifications.ts';

describe('parseClarifications', () => {
  it('splits sections at ### C-NN headings and stops at other headings', () => {
    const md = [
      '# T',
      '### C-01 First',
      'body one',
      '',
      '### C-02 Second',
      'body two',
      '## Other',
      'not a ruling',
    ].join('\n');
    const rulings = parseClarifications(md);
    expect([...rulings.keys()]).toEqual(['C-01', 'C-02']);
    expect(rulings.get('C-01')).toEqual({ id: 'C-01', title: 'First', body: 'body one' });
    expect(rulings.get('C-02')!.body).toBe('body two');
  });

  it('reads the project file', () => {
    const rulings = loadClarifications();
    expect(rulings.get('C-13')?.title).toBe('Id types');
  });
});
