// `a2a-conformance receiver`: the harness plays the service of spec 6 and posts deliveries to a
// webhook receiver the user runs, grading its answers against the receiver requirements of the
// ledger (spec 6.1, 6.4, 6.5, 8; rulings C-70 to C-73). Every request has a deadline, so a receiver
// that hangs, resets or trickles can never hang the harness.
import { performance } from 'node:perf_hooks';
import type { Requirement } from '../../requirements/types.ts';
import { is } from '../check/matchers.ts';
import { createTargetClient } from '../io/target/target-client.ts';
import type { Exchange } from '../../core/evidence.ts';
import { shellQuote } from '../reproduce.ts';
import { runRoleCheck } from '../roles/role-check.ts';
import { roleRunOptions, roleRunResult, type RoleRunOptions } from '../roles/role-run.ts';
import { selectForRun } from '../runner/select-requirements.ts';
import type { CheckResult, Reachability, RunResult } from '../../core/types.ts';
import { deliveryOf, payloadFor, serialise, type Delivery } from './deliveries.ts';
import { answerOf, RECEIVER_CHECKS, type ReceiverCheckContext } from './receiver-checks.ts';
import { percentile } from '../percentile.ts';

export interface ReceiverRunOptions extends Partial<RoleRunOptions> {
  /** The receiver's URL: every delivery is a POST to it. */
  url: string;
  /** The secret the receiver verifies signatures with; without it deliveries are unsigned. */
  secret?: string;
  /** Extra headers sent with each delivery (the configuration's `headers`, spec 2.11). */
  headers?: Record<string, string>;
  log?: (line: string) => void;
}

/** Spec 6.5: receivers should answer within 5 seconds. */
const ANSWER_WITHIN_MS = 5000;

function reproduceFor(opts: ReceiverRunOptions, id: string): string {
  const parts = ['npx a2a-conformance receiver', `--url ${shellQuote(opts.url)}`];
  if (opts.secret !== undefined) parts.push('--secret "$WEBHOOK_SECRET"');
  for (const name of Object.keys(opts.headers ?? {})) parts.push(`--header ${shellQuote(`${name}:…`)}`);
  parts.push(`--only ${shellQuote(id)}`);
  return parts.join(' ');
}

function latencyChecks(
  opts: ReceiverRunOptions,
  exchanges: readonly Exchange[],
): Array<Promise<CheckResult>> {
  const answered = exchanges.filter((e) => e.timings.headersMs !== undefined);
  const times = answered.map((e) => e.timings.headersMs!).sort((a, b) => a - b);
  return [
    runRoleCheck({
      requirementId: '6.5/receiver-answers-within-5s',
      title: `every delivery is answered within ${ANSWER_WITHIN_MS} ms`,
      reproduce: reproduceFor(opts, '6.5/receiver-answers-within-5s'),
      fn(rec, ev) {
        if (exchanges.length === 0) rec.notExercised('no delivery was sent');
        const late = exchanges.filter((e) => (e.timings.headersMs ?? Infinity) > ANSWER_WITHIN_MS);
        ev.push(...late.slice(0, 10));
        for (const e of late)
          rec.check(
            `time to answer ${e.request.headers['x-webhook-event'] ?? ''}`,
            e.timings.headersMs ?? answerOf(e),
            is.where(
              `at most ${ANSWER_WITHIN_MS} ms`,
              (ms) => typeof ms === 'number' && ms <= ANSWER_WITHIN_MS,
            ),
          );
        rec.check('deliveries answered within 5 s', exchanges.length - late.length, exchanges.length);
      },
    }),
    runRoleCheck({
      requirementId: '8/receiver-response-time',
      title: 'response times of every delivery (median, 95th percentile, maximum)',
      reproduce: reproduceFor(opts, '8/receiver-response-time'),
      fn(rec) {
        if (times.length === 0) rec.notExercised('no delivery was answered');
        const summary = {
          deliveries: times.length,
          p50Ms: percentile(times, 50),
          p95Ms: percentile(times, 95),
          maxMs: times.at(-1),
        };
        rec.info('response time (ms, request sent to status line)', summary);
        rec.check('deliveries timed', times.length, is.atLeast(1));
      },
    }),
  ];
}

async function probe(
  post: (d: Delivery) => Promise<Exchange>,
  opts: ReceiverRunOptions,
): Promise<{ reachability: Reachability; couldNotRun: string | null }> {
  const started = performance.now();
  const d = deliveryOf('task.submitted', serialise(payloadFor('task.submitted')), {
    ...(opts.secret === undefined ? {} : { secret: opts.secret }),
    headers: opts.headers ?? {},
  });
  const ex = await post(d);
  const durationMs = Math.round(performance.now() - started);
  if (ex.response === undefined && ex.error?.kind === 'connect') {
    const message = `receiver unreachable: ${ex.error.message}`;
    return {
      reachability: { reachable: false, authenticated: false, message, durationMs },
      couldNotRun: message,
    };
  }
  const status = ex.response?.status;
  const message =
    status === undefined ? `probe delivery: ${String(answerOf(ex))}` : `probe delivery answered ${status}`;
  return {
    reachability: {
      reachable: true,
      authenticated: true,
      ...(status === undefined ? {} : { status }),
      message,
      durationMs,
    },
    couldNotRun: null,
  };
}

export async function certifyReceiver(opts: ReceiverRunOptions): Promise<RunResult> {
  const startedAt = new Date();
  const options = roleRunOptions(opts, opts.timeoutMs ?? 10_000);
  const selected = selectForRun(options, 'receiver');
  const headers = opts.headers ?? {};
  const secrets = [...(opts.secret === undefined ? [] : [opts.secret]), ...Object.values(headers)];
  const client = createTargetClient({
    baseUrl: opts.url,
    agentId: '-',
    auth: {},
    timeoutMs: options.timeoutMs,
    secrets,
  });
  const post = (d: Delivery): Promise<Exchange> =>
    client.raw({
      method: 'POST',
      url: opts.url,
      headers: d.headers,
      body: d.body,
      timeoutMs: options.timeoutMs,
    });
  const log = opts.log ?? (() => undefined);
  try {
    log(
      `a2a-conformance receiver: ${opts.url}, ${selected.length} requirement(s)${opts.secret === undefined ? ', no secret' : ''}`,
    );
    const reached = await probe(post, opts);
    const status = reached.reachability.status;
    if (opts.secret === undefined && (status === 401 || status === 403)) {
      log(
        `note: the receiver answered ${status} to an unsigned delivery: give its secret with --secret or A2A_WEBHOOK_SECRET`,
      );
    }
    const checks =
      reached.couldNotRun === null
        ? await runChecks(
            opts,
            selected,
            { post, headers, ...(opts.secret === undefined ? {} : { secret: opts.secret }) },
            log,
          )
        : [];
    const result = roleRunResult({
      role: 'receiver',
      target: opts.url,
      selected,
      checks,
      reachability: reached.reachability,
      harnessErrors: reached.couldNotRun === null ? [] : [{ message: reached.couldNotRun }],
      couldNotRun: reached.couldNotRun,
      startedAt,
      options,
      secrets,
    });
    return result;
  } finally {
    await client.close();
  }
}

async function runChecks(
  opts: ReceiverRunOptions,
  selected: readonly Requirement[],
  ctx: ReceiverCheckContext,
  log: (line: string) => void,
): Promise<CheckResult[]> {
  const ids = new Set(selected.map((r) => r.id));
  const results: CheckResult[] = [];
  for (const def of RECEIVER_CHECKS.filter((c) => ids.has(c.requirementId))) {
    // Interrupted (SIGINT, SIGTERM): the check under way ended; no other starts.
    if (opts.signal?.aborted === true) break;
    const result = await runRoleCheck({
      requirementId: def.requirementId,
      title: def.title,
      reproduce: reproduceFor(opts, def.requirementId),
      fn: (rec, ev) => def.run(ctx, rec, ev),
    });
    log(`  ${result.status.padEnd(14)} ${def.requirementId}  ${def.title}`);
    results.push(result);
  }
  // The 5 s rule is about acknowledging genuine deliveries: answers to forgeries are not timed.
  const forging = new Set(RECEIVER_CHECKS.filter((c) => c.forges).map((c) => c.title));
  const exchanges = results.filter((r) => !forging.has(r.title)).flatMap((r) => r.evidence.exchanges);
  for (const pending of latencyChecks(opts, exchanges)) {
    const r = await pending;
    if (ids.has(r.requirementId)) results.push(r);
  }
  return results;
}

/** Every check of the receiver mode, as `list` and `explain` show them. */
export function receiverCheckList(): Array<{ requirementId: string; title: string }> {
  return [
    ...RECEIVER_CHECKS.map((c) => ({ requirementId: c.requirementId, title: c.title })),
    {
      requirementId: '6.5/receiver-answers-within-5s',
      title: `every delivery is answered within ${ANSWER_WITHIN_MS} ms`,
    },
    {
      requirementId: '8/receiver-response-time',
      title: 'response times of every delivery (median, 95th percentile, maximum)',
    },
  ];
}
