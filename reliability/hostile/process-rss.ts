// Peak resident memory of a process tree on Linux: polls VmHWM (the kernel's own high-water mark,
// so a peak between two polls is still seen) of a process and of every descendant it starts (the
// CLI and its vitest worker). Elsewhere it reports nothing rather than a wrong figure.
import { readdirSync, readFileSync } from 'node:fs';

const POLL_MS = 50;

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** VmHWM of `pid` in bytes, or undefined once the process is gone. */
export function peakRssOf(pid: number): number | undefined {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readText(`/proc/${pid}/status`) ?? '');
  return m === null ? undefined : Number(m[1]) * 1024;
}

export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) =>
    (readText(`/proc/${pid}/task/${tid}/children`) ?? '')
      .split(' ')
      .filter((s) => s.trim() !== '')
      .map(Number),
  );
}

export function tree(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i += 1) out.push(...childrenOf(out[i]!));
  return out;
}

export interface TreeRss {
  /** Peak of the root process (the CLI). */
  rootBytes: number;
  /** Highest peak among its descendants (the vitest worker). */
  descendantBytes: number;
  /** Whether /proc could be read at all. */
  measured: boolean;
}

export class RssSampler {
  private readonly peaks = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly root: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), POLL_MS);
  }

  sample(): void {
    for (const pid of tree(this.root)) {
      const hwm = peakRssOf(pid);
      if (hwm !== undefined) this.peaks.set(pid, Math.max(hwm, this.peaks.get(pid) ?? 0));
    }
  }

  stop(): TreeRss {
    clearInterval(this.timer);
    const rootBytes = this.peaks.get(this.root) ?? 0;
    const others = [...this.peaks].filter(([pid]) => pid !== this.root).map(([, b]) => b);
    return { rootBytes, descendantBytes: Math.max(0, ...others), measured: this.peaks.size > 0 };
  }
}
