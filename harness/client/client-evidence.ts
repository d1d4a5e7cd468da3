// What a client scenario leaves to grade (spec 2 to 7; rulings C-74 to C-77): the requests the
// scenario server saw, how the driver ended and what it printed, and the helpers every client check
// reads them with (recorded exchanges for the report, reply texts, the driver's outcome).
import { is } from '../check/matchers.ts';
import type { CheckRecorder } from '../check/recorder.ts';
import type { Exchange } from '../../core/evidence.ts';
import type { SeenRequest } from './scenario-server.ts';
import type { Scenario } from './scenarios.ts';
/** How the driver process ended. */
export interface DriverOutcome {
  exitCode: number | null;
  signal: string | null;
  /** Killed at the scenario's budget. */
  killed: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** The process could not be started (e.g. command not found). */
  spawnError?: string;
}

export interface ScenarioRun {
  scenario: Scenario;
  baseUrl: string;
  apiKey: string;
  requests: readonly SeenRequest[];
  driver: DriverOutcome;
  /** The bytes of A2A_FILE (`file`). */
  file?: Buffer;
}

export type ClientCheck = (run: ScenarioRun, rec: CheckRecorder, ev: Exchange[]) => void;

export interface ClientCheckDef {
  requirementId: string;
  title: string;
  check: ClientCheck;
}

/** C-75: the stream is closed within this time of the final event. */
export const CLOSE_WITHIN_MS = 3000;
/** C-74: at most 5 retries, 6 attempts in all. */
export const MAX_ATTEMPTS = 6;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MAX_EVIDENCE = 20;

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export function exchangeOf(seen: SeenRequest, baseUrl: string): Exchange {
  const ex: Exchange = {
    id: `ex-${seen.seq}`,
    kind: seen.rpcMethod === 'message/stream' ? 'stream' : 'http',
    request: {
      method: seen.method,
      url: new URL(seen.url, baseUrl).href,
      headers: seen.headers,
      body: seen.body.length > 16_384 ? `${seen.body.slice(0, 16_384)}…[cut]` : seen.body,
    },
    timings: {
      startedAt: seen.startedAt,
      totalMs: seen.endedAtMs === undefined ? 0 : Math.round(seen.endedAtMs - seen.atMs),
    },
  };
  if (seen.answer !== undefined) {
    const body =
      seen.answer.events !== undefined
        ? seen.answer.events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')
        : JSON.stringify(seen.answer.json ?? null);
    ex.response = {
      status: seen.answer.status,
      headers: {},
      body,
      bodyBytes: Buffer.byteLength(body),
      truncated: false,
      invalidUtf8: false,
      ...(seen.answer.json === undefined ? {} : { json: seen.answer.json }),
      redactions: 0,
    };
  }
  return ex;
}

export const json = (s: SeenRequest): Json =>
  s.json !== null && typeof s.json === 'object' ? (s.json as Json) : {};
export const isMessage = (s: SeenRequest): boolean =>
  s.rpcMethod === 'message/send' || s.rpcMethod === 'message/stream';
export const is5xx = (s: SeenRequest): boolean => (s.answer?.status ?? 0) >= 500;

/** The text parts of a task's `status.message`, joined with a newline (C-76). */
export function replyText(result: unknown): string | undefined {
  const parts = (result as Json | undefined)?.status?.message?.parts;
  if (!Array.isArray(parts)) return undefined;
  return parts
    .filter((p: Json) => p?.type === 'text' && typeof p.text === 'string')
    .map((p: Json) => p.text as string)
    .join('\n');
}

export function finalEvent(s: SeenRequest): Json | undefined {
  const events = (s.answer?.events ?? []) as Json[];
  return events.find((e) => e?.result?.final === true || e?.error !== undefined);
}

export function evidence(run: ScenarioRun, ev: Exchange[], requests: readonly SeenRequest[]): void {
  for (const s of requests.slice(0, MAX_EVIDENCE)) ev.push(exchangeOf(s, run.baseUrl));
}

export function driverNote(rec: CheckRecorder, d: DriverOutcome): void {
  rec.info('driver', {
    exitCode: d.exitCode,
    signal: d.signal,
    killedAtBudget: d.killed,
    durationMs: d.durationMs,
    stdout: d.stdout.slice(0, 2000),
    stderr: d.stderr.slice(-2000),
    ...(d.spawnError === undefined ? {} : { spawnError: d.spawnError }),
  });
}

/** The driver exited 0 on its own and printed `expected` (trailing white space ignored, C-76). */
export function expectOutput(rec: CheckRecorder, run: ScenarioRun, expected: string): void {
  const d = run.driver;
  rec.check(
    'driver exit',
    d.killed ? `killed at the scenario budget after ${d.durationMs} ms` : (d.spawnError ?? d.exitCode),
    0,
  );
  rec.check('driver output (stdout)', d.stdout.trimEnd(), expected.trimEnd());
}

/** The requests of one JSON-RPC method the driver sent, as requests() gives them. */
export function methodRequests(
  run: ScenarioRun,
  rec: CheckRecorder,
  ev: Exchange[],
  method: string,
): SeenRequest[] {
  return requests(run, rec, ev, (s) => s.rpcMethod === method, method);
}

/**
 * The requests the driver sent that `filter` keeps, recorded as the check's evidence; notes the
 * driver's outcome, and records a failed assertion when there is none.
 */
export function requests(
  run: ScenarioRun,
  rec: CheckRecorder,
  ev: Exchange[],
  filter: (s: SeenRequest) => boolean,
  what: string,
): SeenRequest[] {
  const found = run.requests.filter(filter);
  driverNote(rec, run.driver);
  evidence(run, ev, found);
  if (found.length === 0) rec.check(`requests of the ${run.scenario} scenario (${what})`, 0, is.atLeast(1));
  return found;
}

/** The `result` of the JSON answer a request got (undefined for an error, a stream or no answer). */
export function answerResult(s: SeenRequest | undefined): Json | undefined {
  return (s?.answer?.json as Json | undefined)?.result;
}
