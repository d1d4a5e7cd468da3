// requirements/spec-text.ts: the spec text behind a requirement for the CLI's `explain` (spec line
// plus the heading above it; origin and quote for inherited JSON-RPC 2.0 rules).
import { describe, expect, it } from 'vitest';
import { getRequirement } from '../../requirements/index.ts';
import { headingOfLine, specExcerpt, specHeadings, specText } from '../../requirements/spec-text.ts';

describe('specExcerpt and specText', () => {
  it('give the whole quoted line and the heading it sits under', () => {
    const r = getRequirement('3/cancel-final-task-rejected');
    expect(specExcerpt(r)).toEqual({
      heading: '## 3. States and transitions',
      line: 188,
      text: '2. tasks/cancel on a task already in a final state returns an error (section 7).',
    });
    expect(specText(r)).toBe(
      '## 3. States and transitions\n  line 188: 2. tasks/cancel on a task already in a final state returns an error (section 7).',
    );
  });

  it('use the heading of the quoted line even when the requirement sits in another section', () => {
    expect(specExcerpt(getRequirement('4.4/cancel-completed-task-code')).heading).toBe('## 7. Errors');
  });

  it('give origin and quote for an inherited JSON-RPC rule, under the section that inherits it', () => {
    const r = getRequirement('7/parse-error-code');
    const e = specExcerpt(r);
    expect(e).toMatchObject({ heading: '## 7. Errors', origin: 'JSON-RPC 2.0, section 5.1' });
    expect(e.line).toBeUndefined();
    expect(specText(r)).toBe(
      'JSON-RPC 2.0, section 5.1 (inherited by 7. Errors):\n  "-32700 | Parse error | Invalid JSON was received by the server."',
    );
  });
});

describe('specHeadings and headingOfLine', () => {
  it('read numbered headings of both levels', () => {
    const first = specHeadings()[0];
    expect(first).toEqual({
      section: '1',
      title: 'What the service does',
      line: 5,
      text: '## 1. What the service does',
    });
    expect(specHeadings().find((h) => h.section === '6.5')?.title).toBe('Delivery');
  });

  it('find the heading above a line, and none above the first heading', () => {
    expect(headingOfLine(313)?.section).toBe('6.4');
    expect(headingOfLine(311)?.section).toBe('6.4');
    expect(headingOfLine(310)?.section).toBe('6.3');
    expect(headingOfLine(3)).toBeUndefined();
  });
});
