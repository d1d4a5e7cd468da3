// `list` and `explain` show each requirement's role, and the checks of the receiver and client modes.
import { describe, expect, it } from 'vitest';
import { main } from '../../harness/cli/program.ts';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'a2a-conformance', ...args], {
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    env: {},
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('list and explain by role', () => {
  it('lists the receiver requirements with their checks', async () => {
    const r = await cli(['list', '--role', 'receiver']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('6.4/receiver-rejects-missing-signature  MUST  receiver  ');
    expect(r.out).toContain('(a2a-conformance receiver)');
    expect(r.out).not.toContain('  service  ');
    expect(r.out).not.toContain('(no check registered)');
  });

  it('lists the client requirements of a section with their scenario checks', async () => {
    const r = await cli(['list', '--role', 'client', '--only', '7/*']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('7/client-no-retry-non-transient  MUST  client  ');
    expect(r.out).toContain('check: error: the message/send answered with a JSON-RPC error is sent once');
    expect(r.out).toMatch(/^3 requirement\(s\), 3 with checks/m);
  });

  it('refuses a role with nothing selected', async () => {
    const r = await cli(['list', '--role', 'receiver', '--only', '2.1/*']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no requirement of the receiver role matches');
  });

  it('explains a client requirement with its role, its command and its ruling', async () => {
    const r = await cli(['explain', '4/client-sends-credential']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('(MUST, section 4, role client)');
    expect(r.out).toContain('certified by: a2a-conformance client');
    expect(r.out).toContain('C-77 The client');
    expect(r.out).toMatch(/checks \(7\):/);
  });
});
