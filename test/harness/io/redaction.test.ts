// Redaction of the user's secrets (core/redaction.ts): a secret is replaced where it stands as a value
// (a credential header, a URL's user information or query value, a JSON member, a whole token of
// text), never inside another word; short and common-word secrets leave every other word whole.
import { describe, expect, it } from 'vitest';
import {
  countSecrets,
  redact,
  REDACTED,
  redactHeaders,
  redactLine,
  redactResult,
  redactText,
  safeCut,
  urlSecrets,
  withoutUserinfo,
} from '../../../core/redaction.ts';

const KEY = 'sk-test/abc"123';
const text = (t: string, secrets: string[]): string => redactText(t, secrets).text;

/** A word cut by a marker: a letter or digit right against `[redacted]`. */
const CUT_WORD = /[\p{L}\p{N}_]\[redacted\]|\[redacted\][\p{L}\p{N}_]/u;

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

  it('a one-letter key: redacted where it stands, never inside field names, verdicts or words', () => {
    const result = {
      kind: 'stream',
      verdict: 'working',
      reproduce: 'npx a2a-conformance run --api-key "$A2A_API_KEY" --only 4.3/get-current-state',
      request: { headers: { 'x-api-key': 'k', connection: 'keep-alive' }, url: 'http://h/tasks/get?key=k' },
      json: { k: 'k', state: 'working', text: 'Unknown task k.' },
      message: 'tasks/get status.state: expected "working", actual "working"',
    };
    const out = redactResult(result, ['k']);
    expect(out).toEqual({
      kind: 'stream',
      verdict: 'working',
      reproduce: result.reproduce,
      request: {
        headers: { 'x-api-key': REDACTED, connection: 'keep-alive' },
        url: `http://h/tasks/get?key=${REDACTED}`,
      },
      json: { [REDACTED]: REDACTED, state: 'working', text: `Unknown task ${REDACTED}.` },
      message: result.message,
    });
    expect(JSON.stringify(out)).not.toMatch(CUT_WORD);
  });

  it('a common-word key ("task", "working"): the whole word goes, no other word is cut', () => {
    const line = 'a task held by runUntilCanceled reads working; tasks/get, taskId, working-set, task.';
    expect(text(line, ['task', 'working'])).toBe(
      `a ${REDACTED} held by runUntilCanceled reads ${REDACTED}; tasks/get, taskId, working-set, ${REDACTED}.`,
    );
    expect(text(line, ['task', 'working'])).not.toMatch(CUT_WORD);
  });

  it('never nests markers, even for a secret that is the marker word', () => {
    expect(text(`a ${REDACTED} b redacted`, ['redacted'])).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(text(text('k k', ['k']), ['k'])).toBe(`${REDACTED} ${REDACTED}`);
  });
});

describe('redactText: where a token ends', () => {
  it.each([
    ['Bearer k', `Bearer ${REDACTED}`],
    ['"k"', `"${REDACTED}"`],
    ['key=k&x=1', `key=${REDACTED}&x=1`],
    ['the key k.', `the key ${REDACTED}.`],
    ['(k)', `(${REDACTED})`],
    ['user:k@host', `user:${REDACTED}@host`],
    ['"line\\nk"', `"line\\n${REDACTED}"`],
  ])('replaces a bounded token: %s', (input, expected) => {
    expect(text(input, ['k'])).toBe(expected);
  });

  it.each(['tasks', 'api-key', 'x_k', 'kind', 'k.v', 'a/k/b', 'k=v', 'ok', 'Unknown', '2k'])(
    'leaves a word that holds the secret: %s',
    (input) => {
      expect(text(input, ['k'])).toBe(input);
    },
  );

  it('a numeric secret leaves versions and addresses whole', () => {
    expect(text('0.1.0 at 127.0.0.1', ['1', '0'])).toBe('0.1.0 at 127.0.0.1');
  });

  it('a secret with non-word edges needs no bound there', () => {
    expect(text('x==abc==y', ['==abc=='])).toBe(`x${REDACTED}y`);
  });
});

describe('URLs', () => {
  it('removes the user information of every URL in text, with or without a password', () => {
    expect(text('GET https://user:pw@host.example/a and http://tok@h/x', [])).toBe(
      `GET https://${REDACTED}@host.example/a and http://${REDACTED}@h/x`,
    );
    expect(text('mail me at a@b.example, see http://h/p@q', [])).toBe(
      'mail me at a@b.example, see http://h/p@q',
    );
  });

  it('finds the secrets of a URL: the password (and Basic credentials), a lone user name, secret query values', () => {
    expect(urlSecrets('https://user:p%40ss@h/')).toEqual([
      'p%40ss',
      'p@ss',
      Buffer.from('user:p@ss').toString('base64'),
    ]);
    expect(urlSecrets('https://ghp_token@h/')).toEqual(['ghp_token']);
    expect(urlSecrets('https://h/cb?api_key=k&page=2&token=t')).toEqual(['k', 't']);
    expect(urlSecrets('not a url')).toEqual([]);
  });

  it('shows a URL without its user information, in its own form', () => {
    expect(withoutUserinfo('http://u:p@127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(withoutUserinfo('http://u:p@h/gw/')).toBe('http://h/gw/');
    expect(withoutUserinfo('http://h:1')).toBe('http://h:1');
    // Not a URL at all (a bad port): the credentials still go, up to the last @.
    expect(withoutUserinfo('http://u:p@h:99999')).toBe('http://h:99999');
    expect(withoutUserinfo('http://u:p@w@h:99999/x')).toBe('http://h:99999/x');
    expect(withoutUserinfo('not a url')).toBe('not a url');
  });
});

describe('headers', () => {
  it('a credential header loses its whole value when it holds a secret, the scheme kept', () => {
    const r = redactHeaders(
      { 'x-api-key': 'kx', authorization: 'Bearer k-suffix', 'x-request-id': 'k-1', accept: 'k' },
      ['k'],
    );
    expect(r.headers).toEqual({
      'x-api-key': REDACTED,
      authorization: `Bearer ${REDACTED}`,
      'x-request-id': 'k-1',
      accept: REDACTED,
    });
    expect(r.count).toBe(3);
  });

  it('a credential header with no secret of the user stays readable', () => {
    expect(redactHeaders({ 'x-api-key': 'made-up-wrong-key' }, ['k']).headers).toEqual({
      'x-api-key': 'made-up-wrong-key',
    });
  });
});

describe('recording', () => {
  it('counts what a later pass will redact', () => {
    expect(countSecrets('a k b', { 'x-api-key': 'k' }, ['k'])).toBe(2);
    expect(countSecrets('tasks', {}, ['k'])).toBe(0);
  });

  it('cuts a kept text before a secret it would cut in two', () => {
    expect(safeCut('abc secret-value tail', 8, ['secret-value'])).toBe(4);
    expect(safeCut('abc secret-value tail', 17, ['secret-value'])).toBe(17);
    expect(safeCut('short', 8, ['short'])).toBe(5);
  });
});

describe("redact of the agent's data", () => {
  it('redacts JSON members (values, and keys with { keys: true })', () => {
    expect(redact({ apiKey: 'k', nested: [{ k: 'a k' }] }, ['k'], { keys: true })).toEqual({
      apiKey: REDACTED,
      nested: [{ [REDACTED]: `a ${REDACTED}` }],
    });
  });
});

describe('redactLine', () => {
  it('redacts a console line by the same rule', () => {
    expect(redactLine(`curl -H 'authorization: Bearer ${KEY}'`, [KEY])).toBe(
      `curl -H 'authorization: Bearer ${REDACTED}'`,
    );
    expect(redactLine('--api-key "$A2A_API_KEY" for tasks/get', ['k', 'api', 'A2A'])).toBe(
      '--api-key "$A2A_API_KEY" for tasks/get',
    );
  });
});
