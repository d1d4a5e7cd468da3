// The end of a run for its webhook checks (harness/check/expectations.ts): the run's receiver has
// listened all along; each expectation a check left open is settled on every delivery the run got,
// once its grace period (from the slowest delivery lag the agent showed in the whole run) has passed.
// A violation that came after its check ended turns the check into a fail citing it.
import { setTimeout as sleep } from 'node:timers/promises';
import { graceMs, GRACE_RULE, settleAt, settleResult } from '../check/expectations.ts';
import { deliveryEvidence } from '../../core/evidence.ts';
import type { WebhookReceiver } from '../io/webhooks/webhook-receiver.ts';
import type { RunTraffic } from '../../core/types.ts';
import type { CollectedTest } from './collector.ts';

// As in run-check.ts: a check result keeps this many deliveries as evidence.
const MAX_DELIVERY_EVIDENCE = 50;

export interface SettleOptions {
  /** The run's secrets (redaction of added evidence). */
  secrets: string[];
  /** Epoch ms after which the run waits no more (its budget): what is in by then decides. */
  notAfter?: number;
  log?: (line: string) => void;
}

/** report.json's traffic.webhooks (schemas/report.schema.json). */
export type Settled = NonNullable<RunTraffic['webhooks']>;

/** POSTs received: the last sequence number (the oldest may have been dropped by the memory caps). */
function received(ds: readonly { seq: number }[]): number {
  return ds.reduce((max, d) => Math.max(max, d.seq), 0);
}

export async function settleWebhookExpectations(
  tests: readonly CollectedTest[],
  receiver: Pick<WebhookReceiver, 'deliveries'>,
  opts: SettleOptions,
): Promise<Settled> {
  const lags = tests.flatMap((t) => t.webhooks?.lagsMs ?? []);
  const slowestLagMs = lags.reduce((a, b) => Math.max(a, b), 0);
  const grace = graceMs(lags);
  const open = tests.filter((t) => t.result !== undefined && (t.webhooks?.expectations.length ?? 0) > 0);
  const settled: Settled = {
    deliveries: received(receiver.deliveries()),
    slowestLagMs: Math.round(slowestLagMs),
    graceMs: Math.round(grace),
    settledAtEnd: 0,
    changedAtEnd: 0,
    waitedMs: 0,
  };
  if (open.length === 0) return settled;
  const until = Math.max(...open.flatMap((t) => t.webhooks!.expectations.map((e) => settleAt(e, grace))));
  const wait = Math.min(until, opts.notAfter ?? Infinity) - Date.now();
  if (wait > 0) {
    opts.log?.(`waiting ${Math.ceil(wait)} ms for late webhook deliveries (${GRACE_RULE})`);
    await sleep(wait);
    settled.waitedMs = Math.round(wait);
  }
  const all = receiver.deliveries();
  settled.deliveries = received(all);
  const at = Date.now();
  for (const t of open) {
    const result = t.result!;
    const pending = t.webhooks!.expectations;
    settled.settledAtEnd += pending.length;
    const before = result.status;
    const stated = Math.min(...pending.map((e) => e.since));
    const note =
      `webhook expectation(s) settled at the end of the run, ${at - stated} ms after the check stated them ` +
      `(${GRACE_RULE}: ${grace} ms; slowest lag ${slowestLagMs} ms)`;
    const broken = settleResult(result, pending, all, note);
    const kept = new Set(result.evidence.deliveries.map((d) => d.seq));
    for (const d of broken) {
      if (kept.has(d.seq) || result.evidence.deliveries.length >= MAX_DELIVERY_EVIDENCE) continue;
      kept.add(d.seq);
      result.evidence.deliveries.push(deliveryEvidence(d, opts.secrets));
    }
    if (result.status !== before) {
      settled.changedAtEnd += 1;
      opts.log?.(`  ${t.file}: ${t.name}: ${before} -> ${result.status} (${result.message})`);
    }
  }
  return settled;
}
