// The final redaction pass (core/redaction.ts): the user's credentials leave a finished result
// and a console line in every wire form, and secrets too short to tell from field names are left alone.
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../../core/evidence.ts';
import { MIN_SECRET_LENGTH, redactLine, redactResult } from '../../../core/redaction.ts';

const KEY = 'sk-test/abc"123';

describe('redactResult', () => {
  it('replaces a credential at any depth, as is, JSON-escaped and percent-encoded, in a copy', () => {
    const result = {
      target: { auth: KEY },
      checks: [{ curl: `-H 'x-api-key: ${KEY}'`, body: JSON.stringify({ key: KEY }) }],
      url: `https://a.example/?k=${encodeURIComponent(KEY)}`,
    };
    const out = redactResult(result, [KEY]);
    expect(JSON.stringify(out)).not.toContain('abc');
    expect(out.target.auth).toBe(REDACTED);
    expect(out.checks[0]?.curl).toBe(`-H 'x-api-key: ${REDACTED}'`);
    expect(out.url).toBe(`https://a.example/?k=${REDACTED}`);
    expect(result.target.auth).toBe(KEY);
  });

  it(`leaves a secret shorter than ${MIN_SECRET_LENGTH} characters alone, so field names and verdicts survive`, () => {
    const result = { verdict: 'pass', key: 'k' };
    expect(redactResult(result, ['k', 'pass'])).toEqual(result);
  });
});

describe('redactLine', () => {
  it('redacts a console line by the same rule', () => {
    expect(redactLine(`curl -H 'authorization: Bearer ${KEY}'`, [KEY, 'curl'])).toBe(
      `curl -H 'authorization: Bearer ${REDACTED}'`,
    );
  });
});
