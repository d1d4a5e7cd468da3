// The printed outcome of a run: the exact environment and BENCHMARKS-ready Markdown tables, with
// each target of the benchmark marked met or missed.
import { cpus, freemem, loadavg, totalmem, type, release, arch } from 'node:os';
import { execSync } from 'node:child_process';
import type { CertifyResult } from '../scenarios/certify.ts';
import type { MemoryResult } from '../scenarios/memory.ts';
import type { SendResult } from '../scenarios/send.ts';
import type { StreamRow } from '../scenarios/streams.ts';
import type { WebhookResult } from '../scenarios/webhooks.ts';
import type { BenchSettings } from './settings.ts';

export interface BenchResults {
  startedAt: string;
  environment: Record<string, string>;
  settings: BenchSettings;
  send?: SendResult;
  streams?: StreamRow[];
  webhooks?: WebhookResult;
  memory?: MemoryResult;
  certify?: CertifyResult;
  totalS?: number;
}

export function environment(): Record<string, string> {
  const cpu = cpus();
  const commit = (() => {
    try {
      return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      return 'unknown';
    }
  })();
  return {
    node: process.version,
    os: `${type()} ${release()} ${arch()}`,
    cpu: `${cpu.length} x ${cpu[0]?.model ?? 'unknown'}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB (${Math.round(freemem() / 2 ** 30)} GiB free)`,
    loadAverageAtStart: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    commit,
  };
}

const mark = (met: boolean): string => (met ? 'met' : '**missed**');
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const header = (cells: string[], align: string[]): string[] => [row(cells), row(align)];

export function markdown(r: BenchResults): string {
  const lines: string[] = [];
  const s = r.settings;
  lines.push('### Environment', '');
  lines.push(...header(['item', 'value'], ['---', '---']));
  for (const [key, value] of Object.entries(r.environment)) lines.push(row([key, value]));
  lines.push(
    row([
      'settings',
      `${s.rounds} rounds x (${s.warmupS} s warm-up + ${s.durationS} s), ${s.connections} connections, loopback`,
    ]),
  );
  if (r.send !== undefined) {
    const { send } = r;
    lines.push('', '### message/send', '');
    lines.push(
      ...header(
        ['server', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'non-2xx', 'errors'],
        ['---', '---:', '---:', '---:', '---:', '---:', '---:'],
      ),
    );
    for (const x of send.rows)
      lines.push(row([x.server, x.rps, x.p50Ms, x.p99Ms, x.cpuUsPerRequest, x.non2xx, x.errors]));
    lines.push('', ...header(['ratio', 'value', 'target', 'status'], ['---', '---:', '---', '---']));
    const ra = send.ratios;
    lines.push(
      row(['reference / floor, req/s', ra.throughputVsFloor, '>= 0.8', mark(ra.throughputVsFloor >= 0.8)]),
    );
    lines.push(row(['reference / peer, req/s', ra.throughputVsPeer, '>= 2', mark(ra.throughputVsPeer >= 2)]));
    lines.push(row(['reference / floor, p99', ra.p99VsFloor, '<= 2', mark(ra.p99VsFloor <= 2)]));
    lines.push(row(['reference / floor, CPU per request', ra.cpuVsFloor, '(diagnostic)', '']));
  }
  if (r.streams !== undefined) {
    lines.push('', '### message/stream', '');
    lines.push(
      ...header(
        [
          'streams',
          'first event p50 ms',
          'first event p99 ms',
          'final event p50 ms',
          'final event p99 ms',
          'events/s',
          'errors',
        ],
        ['---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      ),
    );
    for (const x of r.streams) {
      lines.push(
        row([
          x.streams,
          x.firstEventP50Ms,
          x.firstEventP99Ms,
          x.finalEventP50Ms,
          x.finalEventP99Ms,
          x.eventsPerSecond,
          x.errors,
        ]),
      );
    }
    const thousand = r.streams.find((x) => x.streams === 1000);
    if (thousand !== undefined) {
      lines.push(
        '',
        `1,000 concurrent streams with no errors: ${mark(thousand.errors === 0)}${thousand.firstError ? ` (${thousand.firstError})` : ''}`,
      );
    }
  }
  if (r.webhooks !== undefined) {
    const w = r.webhooks;
    lines.push('', '### Webhooks', '');
    lines.push(...header(['measure', 'value'], ['---', '---:']));
    lines.push(row(['tasks sent (message/send)', w.tasks]));
    lines.push(row(['signed deliveries received (signature verified)', w.signedDeliveries]));
    lines.push(row(['deliveries with a bad signature', w.badSignatures]));
    lines.push(row(['signed deliveries per second', w.deliveriesPerSecond]));
    lines.push(row(['retries timed', w.retries]));
    lines.push(
      row([
        'retry delay error, measured - scheduled, min / p50 / p99 / max ms',
        `${w.retryErrorMinMs} / ${w.retryErrorP50Ms} / ${w.retryErrorP99Ms} / ${w.retryErrorMaxMs}`,
      ]),
    );
  }
  if (r.memory !== undefined) {
    const m = r.memory;
    lines.push('', '### Memory and store size', '');
    lines.push(...header(['measure', 'value'], ['---', '---:']));
    lines.push(row(['heap per retained task, 10,000 tasks', `${m.heapPerTask10kBytes} B`]));
    lines.push(row(['heap per retained task, 100,000 tasks', `${m.heapPerTask100kBytes} B`]));
    lines.push(row(['heap used with 100,000 tasks', `${m.heapAt100kMB} MiB`]));
    lines.push(
      '',
      ...header(
        ['store', 'tasks/get req/s', 'tasks/get p99 ms', 'message/send req/s', 'message/send p99 ms'],
        ['---', '---:', '---:', '---:', '---:'],
      ),
    );
    for (const x of m.rows) lines.push(row([x.store, x.getRps, x.getP99Ms, x.sendRps, x.sendP99Ms]));
    lines.push(
      '',
      `100k / empty: tasks/get ${m.getRatio}, message/send ${m.sendRatio} (no slowdown: ${mark(m.getRatio >= 0.8 && m.sendRatio >= 0.8)}, at >= 0.8)`,
    );
  }
  if (r.certify !== undefined) {
    const c = r.certify;
    lines.push('', '### Certification (npm run certify)', '');
    lines.push(...header(['measure', 'value'], ['---', '---:']));
    lines.push(row(['exit code', c.exitCode]));
    lines.push(row(['wall time, process start to exit', `${c.wallMs} ms`]));
    lines.push(row(['run time reported by the runner', `${c.runMs} ms`]));
    lines.push(row(['suite files at once (workers)', c.workers]));
    lines.push(
      row(['longest check per suite file, summed over the workers', `${c.checksCriticalPathMs} ms`]),
    );
    lines.push(row(['floor: unavoidable waits per file, summed over the workers', `${c.floorMs} ms`]));
    lines.push(
      row([`wall / floor (target <= 1.5)`, `${c.ratio} (${mark(c.ratio <= 1.5).replaceAll('*', '')})`]),
    );
    lines.push(row(['suite files / checks', `${c.files} / ${c.checks}`]));
  }
  if (r.totalS !== undefined) lines.push('', `Whole benchmark: ${r.totalS} s.`);
  return lines.join('\n');
}
