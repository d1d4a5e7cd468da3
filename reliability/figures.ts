// Shared figures of the reliability runs: byte formatting and the heap criterion ("memory returns to
// its baseline": heap used after a full GC, at the end, within a fixed tolerance of the baseline).
import type { MemoryFigures } from './child-server.ts';

/**
 * Allowed heap growth after a run: V8 keeps some compiled code, inline caches and the Ajv and regex
 * caches that a run warms; a leak of one object per request (100,000 requests) exceeds it.
 */
export const HEAP_TOLERANCE_BYTES = 8 * 1024 * 1024;

export function heapGrowth(baseline: MemoryFigures, after: MemoryFigures): number {
  return after.heapUsed - baseline.heapUsed;
}

export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  const n = Math.abs(bytes);
  if (n < 1024) return `${sign}${n} B`;
  if (n < 1024 * 1024) return `${sign}${(n / 1024).toFixed(1)} KiB`;
  return `${sign}${(n / 1024 / 1024).toFixed(1)} MiB`;
}
