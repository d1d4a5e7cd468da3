// message/stream under concurrency (spec 4.2, C-31, C-42): 100 and then 1,000 streams opened at once,
// each a task that works `delayMs` with `progressSteps` updates (docs/directives.md), so every stream
// is held open at the same time. Times are from the moment the batch is sent.
import { Agent } from 'node:http';
import { directive, serviceBody } from '../lib/bodies.ts';
import { openStream, type StreamOutcome } from '../lib/sse.ts';
import { ascending, percentile, round } from '../lib/stats.ts';
import { agentUrl, profileFlags, startReference } from '../lib/targets.ts';
import type { BenchSettings } from '../lib/settings.ts';

/** Long enough that every stream of the batch is open before the first one ends. */
export const STREAM_TASK = Object.freeze({ delayMs: 2000, progressSteps: 10 });
/** submitted, working 0/N, N progress updates, completed. */
export const EVENTS_PER_STREAM = STREAM_TASK.progressSteps + 3;

export interface StreamRow {
  streams: number;
  firstEventP50Ms: number;
  firstEventP99Ms: number;
  finalEventP50Ms: number;
  finalEventP99Ms: number;
  /** Events received per second over the whole batch (first request sent to last final event). */
  eventsPerSecond: number;
  events: number;
  errors: number;
  firstError?: string;
}

export async function benchStreams(
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<StreamRow[]> {
  const child = await startReference('streams', profileFlags(settings.cpuProf, 'reference-streams'));
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    const url = agentUrl(child.info);
    const headers = { 'x-api-key': child.info.apiKey };
    // Warm-up: a small batch so the first measured batch does not pay for JIT and lazy loading.
    await batch(url, headers, agent, 20);
    const rows: StreamRow[] = [];
    for (const streams of [100, 1000]) {
      const row = await batch(url, headers, agent, streams);
      log(
        `  streams ${streams}: final p99 ${row.finalEventP99Ms} ms, ${row.eventsPerSecond} events/s, ${row.errors} errors`,
      );
      rows.push(row);
    }
    return rows;
  } finally {
    agent.destroy();
    await child.stop();
  }
}

async function batch(
  url: string,
  headers: Record<string, string>,
  agent: Agent,
  streams: number,
): Promise<StreamRow> {
  const t0 = performance.now();
  const outcomes: Promise<StreamOutcome>[] = [];
  for (let i = 0; i < streams; i += 1) {
    const body = serviceBody('message/stream', [directive(STREAM_TASK)]);
    outcomes.push(openStream({ url, headers, body, agent, t0 }));
  }
  const done = await Promise.all(outcomes);
  const wallS = Math.max(...done.map((o) => (Number.isNaN(o.finalEventMs) ? 0 : o.finalEventMs))) / 1000;
  // A stream with fewer events than the task produces lost some: that counts as an error too.
  const failed = done.filter((o) => o.error !== undefined || o.events !== EVENTS_PER_STREAM);
  const first = ascending(done.map((o) => o.firstEventMs).filter((v) => !Number.isNaN(v)));
  const final = ascending(done.map((o) => o.finalEventMs).filter((v) => !Number.isNaN(v)));
  const events = done.reduce((sum, o) => sum + o.events, 0);
  const bad = failed[0];
  return {
    streams,
    firstEventP50Ms: round(percentile(first, 50)),
    firstEventP99Ms: round(percentile(first, 99)),
    finalEventP50Ms: round(percentile(final, 50)),
    finalEventP99Ms: round(percentile(final, 99)),
    eventsPerSecond: Math.round(events / wallS),
    events,
    errors: failed.length,
    ...(bad === undefined
      ? {}
      : { firstError: bad.error ?? `${bad.events} events instead of ${EVENTS_PER_STREAM}` }),
  };
}
