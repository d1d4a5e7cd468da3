// Bounded in-memory record of webhook deliveries (diagnostics for spec 6.5 and ruling C-20): each
// event to each config with its attempts, status and scheduled versus actual retry delays.
import type { DeliveryRecord } from './types.ts';

export interface DeliveryLog {
  add(record: DeliveryRecord): void;
  /** Deep copies, oldest first, so callers cannot mutate live records. */
  snapshot(): DeliveryRecord[];
}

export function createDeliveryLog(capacity: number): DeliveryLog {
  // A ring of `capacity` slots: adding past it overwrites the oldest in O(1). (Taking the first
  // record of a Set deleted from at the front costs time in the records deleted so far.)
  const ring: (DeliveryRecord | undefined)[] = [];
  let next = 0;
  return {
    add(record) {
      if (capacity <= 0) return;
      ring[next] = record;
      next = (next + 1) % capacity;
    },
    snapshot: () => {
      const ordered = ring.length < capacity ? ring : [...ring.slice(next), ...ring.slice(0, next)];
      return ordered.map((record) => structuredClone(record as DeliveryRecord));
    },
  };
}
