// Chooses the store of a reference server from `--store` / A2A_STORE / the config file's `store`:
// `memory` (the default: one process) or a `redis://` / `rediss://` URL shared by replicas.
import { MemoryStore } from './memory-store.ts';
import { RedisStore } from './redis-store.ts';
import type { ReferenceStore } from './types.ts';

export type { ReferenceStore } from './types.ts';

/** The store forms accepted, for messages and the config check. */
export const STORE_FORMS = '"memory", or a redis:// or rediss:// URL';

export function isStoreSpec(value: string): boolean {
  return value === 'memory' || /^rediss?:\/\//.test(value);
}

export async function openStore(spec: string | undefined): Promise<ReferenceStore> {
  if (spec === undefined || spec === 'memory') return new MemoryStore();
  if (!isStoreSpec(spec)) throw new Error(`store: must be ${STORE_FORMS} (got ${JSON.stringify(spec)})`);
  return RedisStore.connect(spec);
}
