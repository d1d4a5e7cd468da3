// How many vitest workers the suite files share: one for a fixed receiver port, a low --concurrency or
// a narrow run; more against a slow agent (its turns are waits that files overlap) or the bundled server.
import type { ProvidedRun } from '../provided.ts';

// Workers the suite files share against a --target: an agent's seconds per turn and its network
// delay are waits, so files overlap them. Four keep the agent's task slots busy on a slow agent (1.5 s
// per turn: 155 s with three, 144 s with four); more only add memory on two cores.
const FIELD_WORKERS = 4;
// Workers against the bundled server: its answers are instant, but a certification still waits on
// spec-bound times (the 5 s receiver timeout of 6.5, the 2 s system timeout of section 3 and 4.1), which
// more workers overlap with the other files while the checks that need the agent idle run in turn
// (`npm run certify` on two cores: 22-23 s in one worker, 18.5-19.7 s in two, 17.5-17.8 s in three;
// BENCHMARKS.md).
const BUNDLED_WORKERS = 3;
const MIN_PARALLEL_FILES = 8;

/** Workers for this run: one for a fixed receiver port, a low --concurrency or a narrow run. */
export function suiteWorkers(run: ProvidedRun, files: number): number {
  // A fixed --webhook-listen port is bound once by the runner (webhookLink); without it, by each worker.
  const fixedPort = run.webhookListen.port !== 0 && run.webhookLink === undefined;
  if (fixedPort || run.field.concurrency < 8) return 1;
  // A narrow run (--only a few sections) is over before more workers would have loaded.
  if (files < MIN_PARALLEL_FILES) return 1;
  return run.bundled ? BUNDLED_WORKERS : FIELD_WORKERS;
}
