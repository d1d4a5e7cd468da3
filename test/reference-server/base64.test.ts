// Strict Base64 of file parts (spec 2.5, C-14), including files at the 5 MiB maxFileSize: the
// check must stay linear (a regular expression over 7 MB of text overflowed V8's stack).
import { describe, expect, it } from 'vitest';
import { isStrictBase64 } from '../../reference-server/rpc/message-params.ts';

describe('isStrictBase64', () => {
  it.each(['', 'aGk=', 'aGk/', 'AAAA', 'YQ==', Buffer.from('any bytes \u00ff').toString('base64')])(
    'accepts %j',
    (text) => {
      expect(isStrictBase64(text)).toBe(true);
    },
  );

  it.each([
    ['a data: prefix', 'data:text/plain;base64,aGk='],
    ['missing padding', 'YQ'],
    ['URL-safe alphabet', 'a-_b'],
    ['whitespace', 'aGk=\n'],
    ['non-zero padding bits', 'YR=='],
    ['padding in the middle', 'YQ==YQ=='],
    ['characters outside the alphabet', 'aG*k'],
  ])('refuses %s', (_what, text) => {
    expect(isStrictBase64(text)).toBe(false);
  });

  it('handles a 5 MiB file and one byte more without overflowing', () => {
    const file = Buffer.alloc(5 * 1024 * 1024 + 1, 7).toString('base64');
    expect(isStrictBase64(file)).toBe(true);
    expect(isStrictBase64(`${file.slice(0, -4)}!!!!`)).toBe(false);
  });
});
