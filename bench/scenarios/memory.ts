// Task retention (spec 4.3, C-44): heap per retained task at 10,000 and 100,000 tasks (after a full
// GC, --expose-gc), then tasks/get and message/send throughput with 100,000 tasks stored against an
// empty store, back to back: lookups must not slow as the store grows.
import { completedEcho, postJson, rpcBody, serviceBody } from '../lib/bodies.ts';
import type { Child } from '../lib/child.ts';
import { runLoad } from '../lib/load.ts';
import type { BenchSettings } from '../lib/settings.ts';
import { ratio, round } from '../lib/stats.ts';
import { agentUrl, startReference } from '../lib/targets.ts';

const WARM_TASKS = 1000;

export interface MemoryResult {
  heapPerTask10kBytes: number;
  heapPerTask100kBytes: number;
  heapAt100kMB: number;
  rows: {
    store: string;
    tasks: number;
    getRps: number;
    getP99Ms: number;
    sendRps: number;
    sendP99Ms: number;
  }[];
  getRatio: number;
  sendRatio: number;
}

type Ref = Child<{ baseUrl: string; apiKey: string }>;

async function fill(child: Ref, amount: number): Promise<void> {
  const load = await runLoad({
    url: agentUrl(child.info),
    headers: { 'x-api-key': child.info.apiKey },
    body: serviceBody(),
    connections: 20,
    amount,
  });
  if (load.ok !== amount) throw new Error(`fill: ${load.ok} of ${amount} tasks created`);
}

async function heap(child: Ref): Promise<number> {
  const sample = await child.ask<{ heapUsed: number } | undefined>({ type: 'heap' });
  if (sample === undefined) throw new Error('the reference child was started without --expose-gc');
  return sample.heapUsed;
}

export async function benchMemory(
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<MemoryResult> {
  const large = await startReference('store-large', ['--expose-gc']);
  const small = await startReference('store-small');
  try {
    await fill(large, WARM_TASKS);
    const base = await heap(large);
    await fill(large, 10_000 - WARM_TASKS);
    const at10k = await heap(large);
    await fill(large, 100_000 - 10_000);
    const at100k = await heap(large);
    log(`  memory: ${Math.round((at100k - base) / (100_000 - WARM_TASKS))} bytes per task at 100k`);
    const rows: MemoryResult['rows'] = [];
    for (const [store, child, tasks] of [
      ['empty', small, 0],
      ['100k tasks', large, 100_000],
    ] as const) {
      rows.push({ store, tasks, ...(await throughput(child, settings)) });
    }
    const [empty, full] = rows as [MemoryResult['rows'][number], MemoryResult['rows'][number]];
    return {
      heapPerTask10kBytes: Math.round((at10k - base) / (10_000 - WARM_TASKS)),
      heapPerTask100kBytes: Math.round((at100k - base) / (100_000 - WARM_TASKS)),
      heapAt100kMB: round(at100k / 2 ** 20),
      rows,
      getRatio: ratio(full.getRps, empty.getRps),
      sendRatio: ratio(full.sendRps, empty.sendRps),
    };
  } finally {
    await Promise.all([large.stop(), small.stop()]);
  }
}

async function throughput(child: Ref, settings: BenchSettings) {
  const url = agentUrl(child.info);
  const headers = { 'x-api-key': child.info.apiKey };
  const task = completedEcho(await postJson(url, headers, serviceBody()));
  const measure = async (body: string) => {
    const load = { url, headers, body, connections: settings.connections };
    await runLoad({ ...load, durationS: settings.warmupS });
    return runLoad({ ...load, durationS: settings.durationS });
  };
  const get = await measure(rpcBody('tasks/get', { taskId: task.id }));
  const send = await measure(serviceBody());
  return {
    getRps: Math.round(get.rps),
    getP99Ms: round(get.p99Ms, 2),
    sendRps: Math.round(send.rps),
    sendP99Ms: round(send.p99Ms, 2),
  };
}
