// The fleet file: defaults merged under each agent's options, a baseline path read from the file's
// directory, the kill deadline derived from the budget, and a clear ConfigError naming the agent and
// the field for every mistake (duplicate names, no credential variable, a credential or an unknown
// option in the file, an invalid option value).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandFor } from '../../harness/fleet/agent-run.ts';
import { KILL_MARGIN_MS, loadFleet } from '../../harness/fleet/fleet-file.ts';
import { ConfigError, ENV_VARS } from '../../harness/options.ts';
import { loadSchema } from '../../schemas/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'a2a-fleet-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function fleetFile(content: unknown): string {
  const file = join(dir, `fleet-${(n += 1)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const agent = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  target: 'https://agents.example.com/',
  agentId: name,
  apiKeyEnv: 'KEY',
  ...extra,
});

describe('loadFleet', () => {
  it('takes the gateway headers per agent, secret ones by environment variable, and TLS files from the file directory', () => {
    const fleet = loadFleet(
      fleetFile({
        agents: [
          agent('gw', {
            secretHeadersEnv: { 'X-Gateway-Key': 'GW_KEY' },
            options: { header: ['X-Tenant: acme'], proxy: 'http://proxy.example:3128' },
          }),
        ],
      }),
    );
    const [gw] = fleet.agents;
    expect(gw!.options).toMatchObject({ header: ['X-Tenant: acme'], proxy: 'http://proxy.example:3128' });
    expect(gw!.secretHeadersEnv).toEqual({ 'X-Gateway-Key': 'GW_KEY' });
    expect(commandFor(gw!, '/r/gw')).toMatch(
      /^A2A_API_KEY="\$KEY" A2A_SECRET_HEADERS="X-Gateway-Key: \$GW_KEY" npx /,
    );
    // A relative TLS file is read from the fleet file's directory; a credential header refused.
    expect(() => loadFleet(fleetFile({ agents: [agent('t', { options: { caCert: 'nope.pem' } })] }))).toThrow(
      new RegExp(`agent "t": --ca-cert: cannot read the CA bundle ${join(dir, 'nope.pem')}`),
    );
    expect(() =>
      loadFleet(fleetFile({ agents: [agent('h', { options: { header: ['Authorization: Bearer x'] } })] })),
    ).toThrow(/agent "h": --header may not set authorization/);
  });

  it("re-runs an agent by hand without the target URL's user information (never sent, never printed)", () => {
    const fleet = loadFleet(
      fleetFile({ agents: [agent('ui', { target: 'https://user:pw@agents.example.com' })] }),
    );
    const command = commandFor(fleet.agents[0]!, '/r/ui');
    expect(command).toContain('--target https://agents.example.com --agent-id ui');
    expect(command).not.toContain('pw');
  });

  it('merges defaults under each agent, resolves the baseline from the file, derives the kill deadline', () => {
    mkdirSync(join(dir, 'baselines'), { recursive: true });
    writeFileSync(join(dir, 'baselines/all.json'), JSON.stringify({ expectedFailures: [] }));
    const fleet = loadFleet(
      fleetFile({
        defaults: { level: 'must', only: ['7/*'], budgetMs: 60_000, baseline: 'baselines/all.json' },
        hosts: { 'https://agents.example.com': { maxAgents: 2 } },
        agents: [
          agent('a', { options: { level: 'should' } }),
          agent('b', { bearerEnv: 'TOKEN', apiKeyEnv: undefined, killAfterMs: 5_000 }),
        ],
      }),
    );
    const [a, b] = fleet.agents;
    expect(a).toMatchObject({
      name: 'a',
      target: 'https://agents.example.com',
      origin: 'https://agents.example.com',
      apiKeyEnv: 'KEY',
      options: {
        level: 'should',
        only: ['7/*'],
        budgetMs: 60_000,
        baseline: join(dir, 'baselines/all.json'),
      },
      killAfterMs: 60_000 + KILL_MARGIN_MS,
    });
    expect(b).toMatchObject({ bearerEnv: 'TOKEN', killAfterMs: 5_000 });
    expect(b!.apiKeyEnv).toBeUndefined();
    expect(fleet.hosts).toEqual({ 'https://agents.example.com': { maxAgents: 2 } });
    expect(fleet.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads each baseline before any agent runs: a missing one names the agent and the file', () => {
    expect(() =>
      loadFleet(fleetFile({ agents: [agent('nb', { options: { baseline: 'missing/base.json' } })] })),
    ).toThrow(new RegExp(`agent "nb": cannot read baseline ${join(dir, 'missing/base.json')}`));
  });

  const refusals: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"agents": [', /cannot read fleet file/],
    ['no agents', { agents: [] }, /agents: must NOT have fewer than 1 items/],
    [
      'a name used twice (case aside)',
      { agents: [agent('Billing'), agent('billing')] },
      /"billing" is used twice \(also "Billing"\)/,
    ],
    [
      'a name that is not a directory name',
      { agents: [agent('../up')] },
      /agents\[0\]\.name: must match pattern/,
    ],
    [
      'no credential variable',
      { agents: [{ name: 'a', target: 'https://x.example', agentId: 'a' }] },
      /agent "a": name the environment variable/,
    ],
    [
      'a credential in the file',
      { agents: [agent('a', { options: { apiKey: 'secret' } })] },
      /agents\[0\]\.options\.apiKey: must NOT have additional properties/,
    ],
    [
      'an unknown option',
      { defaults: { levle: 'must' }, agents: [agent('a')] },
      /defaults\.levle: must NOT have additional properties/,
    ],
    [
      'a target that is not http(s)',
      { agents: [agent('a', { target: 'ftp://x' })] },
      /agents\[0\]\.target: must match pattern/,
    ],
    [
      'an invalid option value',
      { defaults: { webhookPublicUrl: 'not a url' }, agents: [agent('a')] },
      /agent "a": webhookPublicUrl must be an absolute http\(s\) URL/,
    ],
  ];
  it.each(refusals)('refuses %s with a ConfigError naming it', (_what, content, message) => {
    const file = fleetFile(content);
    expect(() => loadFleet(file)).toThrow(ConfigError);
    expect(() => loadFleet(file)).toThrow(message);
  });
});

describe('fleet-file.schema.json', () => {
  it('allows every run option but the ones the fleet sets per agent (target, agent id, out, credentials, secret headers)', () => {
    const schema = loadSchema('fleet-file') as { $defs: { runOptions: { properties: object } } };
    // Also each agent's own event stream and replicas: they name one agent's files and addresses.
    const perAgent = ['target', 'agentId', 'apiKey', 'bearer', 'out', 'secretHeader', 'events', 'replica'];
    const runOptions = Object.keys(ENV_VARS).filter((k) => !perAgent.includes(k));
    expect(Object.keys(schema.$defs.runOptions.properties).sort()).toEqual(runOptions.sort());
  });
});
