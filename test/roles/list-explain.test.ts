// `list` and `explain` show each requirement's role, and the checks of the receiver and client modes.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-run.ts';

describe('list and explain by role', () => {
  it('lists the receiver requirements with their checks', async () => {
    const r = await runCli(['list', '--role', 'receiver']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('6.4/receiver-rejects-missing-signature  MUST  receiver  ');
    expect(r.stdout).toContain('(a2a-conformance receiver)');
    expect(r.stdout).not.toContain('  service  ');
    expect(r.stdout).not.toContain('(no check registered)');
  });

  it('lists the client requirements of a section with their scenario checks', async () => {
    const r = await runCli(['list', '--role', 'client', '--only', '7/*']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('7/client-no-retry-non-transient  MUST  client  ');
    expect(r.stdout).toContain('check: error: the message/send answered with a JSON-RPC error is sent once');
    expect(r.stdout).toMatch(/^3 requirement\(s\), 3 with checks/m);
  });

  it('refuses a role with nothing selected', async () => {
    const r = await runCli(['list', '--role', 'receiver', '--only', '2.1/*']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no requirement of the receiver role matches');
  });

  it('explains a client requirement with its role, its command and its ruling', async () => {
    const r = await runCli(['explain', '4/client-sends-credential']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(MUST, section 4, role client)');
    expect(r.stdout).toContain('certified by: a2a-conformance client');
    expect(r.stdout).toContain('C-77 The client');
    expect(r.stdout).toMatch(/checks \(7\):/);
  });
});
