// The child side of bench/lib/child.ts: prints the ready line, answers IPC requests (heap size after
// a full GC, CPU time used) and exits cleanly on SIGTERM so the parent can stop it by PID.

export type IpcHandler = (message: Record<string, unknown>) => unknown;

/** Heap in use after a full collection; needs --expose-gc (otherwise undefined). */
export function heapAfterGc(): { heapUsed: number; rss: number } | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return undefined;
  // Two passes: the first may leave weakly held or finalisable objects for the second.
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

export function serveChild(
  info: Record<string, unknown>,
  handlers: Record<string, IpcHandler>,
  close: () => Promise<void>,
): void {
  const all: Record<string, IpcHandler> = {
    heap: () => heapAfterGc(),
    cpu: () => process.cpuUsage(),
    ...handlers,
  };
  process.on('message', (raw: Record<string, unknown>) => {
    const { id, type } = raw;
    void (async () => {
      try {
        const handler = all[String(type)];
        if (handler === undefined) throw new Error(`unknown request ${String(type)}`);
        process.send?.({ id, result: await handler(raw) });
      } catch (error) {
        process.send?.({ id, error: (error as Error).message });
      }
    })();
  });
  const stop = (): void => {
    void close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`${JSON.stringify(info)}\n`);
}
