// docs/reference-server.md "Run the reference server as replicas": its Compose example parses, runs
// `serve --store redis://` replicas on the Redis service it declares, and balances them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { isStoreSpec } from '../../reference-server/store/index.ts';

const GUIDE = readFileSync(fileURLToPath(new URL('../../docs/reference-server.md', import.meta.url)), 'utf8');

interface Service {
  image?: string;
  command?: string;
  deploy?: { replicas?: number };
  depends_on?: string[];
}

describe('docs/reference-server.md: Run the reference server as replicas', () => {
  const section = GUIDE.slice(GUIDE.indexOf('## Run the reference server as replicas'));
  const yamlBlock = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];

  it('has a Compose example that parses', () => {
    expect(yamlBlock).toBeDefined();
    const compose = parse(yamlBlock!) as { services: Record<string, Service> };
    expect(Object.keys(compose.services).sort()).toEqual(['agent', 'balancer', 'redis']);
  });

  it('runs several serve replicas on the Redis service it declares, behind the balancer', () => {
    const { services } = parse(yamlBlock!) as { services: Record<string, Service> };
    const agent = services.agent!;
    expect(agent.deploy?.replicas).toBeGreaterThan(1);
    const store = /--store (\S+)/.exec(agent.command ?? '')?.[1];
    expect(store).toBeDefined();
    expect(isStoreSpec(store!)).toBe(true);
    expect(new URL(store!).hostname).toBe('redis');
    expect(agent.depends_on).toContain('redis');
    expect(services.balancer!.depends_on).toContain('agent');
  });
});
