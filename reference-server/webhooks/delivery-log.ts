// Bounded in-memory record of webhook deliveries (diagnostics for spec 6.5 and ruling C-20): each
// event to each config with its attempts, status and scheduled versus actual retry delays.
import type { DeliveryRecord } from './types.ts';

export interface DeliveryLog {
  add(record: DeliveryRecord): void;
  /** Deep copies, oldest first, so callers cannot mutate live records. */
  snapshot(): DeliveryRecord[];
}

export function createDeliveryLog(capacity: number): DeliveryLog {
  // Insertion-ordered Set: evicting the oldest is O(1) and memory never exceeds `capacity` records.
  const records = new Set<DeliveryRecord>();
  return {
    add(record) {
      records.add(record);
      if (records.size > capacity) {
        const oldest = records.values().next().value;
        if (oldest) records.delete(oldest);
      }
    },
    snapshot: () => [...records].map((record) => structuredClone(record)),
  };
}
