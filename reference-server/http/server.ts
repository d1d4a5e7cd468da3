// The HTTP front of the service (spec 4, 5; C-01, C-03, C-04, C-23, C-28, C-32, C-33, C-38, C-42, C-47):
// routes `POST /api/v1/a2a/{agent_id}`, answers preflights, checks the agent, credentials, rate
// limit, Content-Type and body size in that order, then hands the JSON-RPC request to the dispatcher.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { maxBodyBytes } from '../agents/config.ts';
import type { AgentRuntime } from '../agents/runtime.ts';
import { readableId, readEnvelope } from '../rpc/envelope.ts';
import { dispatch } from '../rpc/dispatch.ts';
import { errorResponse, rpcError, type RpcErrorObject, type RpcId } from '../rpc/errors.ts';
import type { WebhookService } from '../webhooks/index.ts';
import { authenticate, WWW_AUTHENTICATE } from './auth.ts';
import { drainRequest, isJsonContentType, readBody } from './body.ts';
import { corsHeaders, CORS_ALLOW_METHODS, preflightHeaders } from './cors.ts';
import { HTTP_LIMITS, urlTooLong } from './limits.ts';
import { sendJson } from './respond.ts';

export interface ServerState {
  runtimes: ReadonlyMap<string, AgentRuntime>;
  corsOrigins: readonly string[];
  webhooks: WebhookService;
}

/** C-33: only v1 is served; anything else is an unknown route (C-32). */
const AGENT_PATH = /^\/api\/v1\/a2a\/([^/]+)$/;
/** Enough to read the id of any sane request when answering before the body is interpreted (C-01). */
const ID_PROBE_LIMIT = 64 * 1024;

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Answers a transport-level error, echoing the request id when the body is small and readable. */
async function rejectWithId(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  error: RpcErrorObject,
  headers: Record<string, string>,
): Promise<void> {
  const body = await readBody(req, ID_PROBE_LIMIT);
  const id: RpcId = body.ok ? readableId(body.text) : null;
  sendJson(res, status, errorResponse(id, error), headers);
}

/** A body that could not be read: 413 (C-42), -32700 for invalid UTF-8, nothing for an aborted upload. */
function rejectBody(
  req: IncomingMessage,
  res: ServerResponse,
  reason: 'too-large' | 'aborted' | 'invalid-utf8',
  limit: number,
  cors: Record<string, string>,
): void {
  if (reason === 'aborted') return void res.destroy();
  if (reason === 'too-large') {
    const error = rpcError('INVALID_REQUEST', { details: `the request body exceeds ${limit} bytes`, limit });
    sendJson(res, 413, errorResponse(null, error), cors);
    // The rest of the upload is read (bounded) so the client gets the 413 rather than EPIPE.
    return drainRequest(req);
  }
  const error = rpcError('PARSE_ERROR', { details: 'the request body is not valid UTF-8' });
  sendJson(res, 200, errorResponse(null, error), cors);
}

export function createRequestHandler(
  state: ServerState,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      process.stderr.write(`reference-server: request failed: ${(error as Error)?.stack ?? String(error)}\n`);
      sendJson(res, 500, errorResponse(null, rpcError('INTERNAL_ERROR')));
    });
  };
}

async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const cors = corsHeaders(req.headers.origin, state.corsOrigins);
  if (urlTooLong(req.url)) {
    const limit = HTTP_LIMITS.maxUrlBytes;
    const error = rpcError('INVALID_REQUEST', {
      details: `the request target exceeds ${limit} bytes`,
      limit,
    });
    return sendJson(res, 414, errorResponse(null, error), cors);
  }
  const path = pathOf(req.url);
  const match = AGENT_PATH.exec(path);
  if (match === null) {
    const error = rpcError('INVALID_REQUEST', { details: `unknown path ${path}`, path });
    return sendJson(res, 404, errorResponse(null, error), cors);
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, ...preflightHeaders() });
    res.end();
    return;
  }
  if (req.method !== 'POST') {
    const error = rpcError('INVALID_REQUEST', { details: 'use POST' });
    return sendJson(res, 405, errorResponse(null, error), { ...cors, Allow: CORS_ALLOW_METHODS });
  }
  const agentId = decodeSegment(match[1] as string);
  const runtime = state.runtimes.get(agentId);
  if (runtime === undefined) {
    return sendJson(res, 404, errorResponse(null, rpcError('AGENT_NOT_FOUND', { agentId })), cors);
  }
  const auth = authenticate(runtime.config, req.headersDistinct);
  if (!auth.ok) {
    const error = rpcError('UNAUTHORIZED', { reason: auth.reason });
    return rejectWithId(req, res, 401, error, { ...cors, 'WWW-Authenticate': WWW_AUTHENTICATE });
  }
  await handleAuthenticated(state, runtime, req, res, cors);
}

function recordMetrics(runtime: AgentRuntime, started: number, success: boolean): void {
  runtime.metrics.record(performance.now() - started, success);
}

/** Everything after authentication counts in the agent's metrics (C-30). */
async function handleAuthenticated(
  state: ServerState,
  runtime: AgentRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  cors: Record<string, string>,
): Promise<void> {
  const started = performance.now();
  const rate = await runtime.limiter.take();
  if (!rate.allowed) {
    recordMetrics(runtime, started, false);
    const { retryAfterSeconds } = rate;
    const error = rpcError('RATE_LIMITED', { limit: runtime.limiter.limit, retryAfterSeconds });
    return rejectWithId(req, res, 429, error, { ...cors, 'Retry-After': String(retryAfterSeconds) });
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    recordMetrics(runtime, started, false);
    const error = rpcError('INVALID_REQUEST', { details: 'Content-Type must be application/json' });
    return rejectWithId(req, res, 415, error, cors);
  }
  const body = await readBody(req, maxBodyBytes(runtime.config));
  if (!body.ok) {
    recordMetrics(runtime, started, false);
    return rejectBody(req, res, body.reason, maxBodyBytes(runtime.config), cors);
  }
  const envelope = readEnvelope(body.text);
  if (!envelope.ok) {
    recordMetrics(runtime, started, false);
    return sendJson(res, 200, errorResponse(envelope.id, envelope.error), cors);
  }
  const base = { runtime, webhooks: state.webhooks, req, res, responseHeaders: cors };
  const outcome = await dispatch(base, envelope.request);
  if (outcome.kind === 'streamed') return recordMetrics(runtime, started, true);
  recordMetrics(runtime, started, !('error' in outcome.response));
  sendJson(res, outcome.status, outcome.response, cors);
}
