// What the probe says when the target is no A2A agent, or refuses the credential (spec 2.2: every
// answer of the service is a JSON-RPC response object; spec 5: the credential). A web server that
// answers HTML, text or 501 to every POST ends the run within seconds, naming what it answered and
// the fix, instead of spending the run's requests on it.
import type { Exchange, RecordedResponse } from '../../core/evidence.ts';
import { isObject } from '../../schemas/json.ts';
import { withoutCredentials } from '../io/target/network.ts';

/** A body only an A2A service (or another JSON-RPC server) sends: a response object, or a batch of them. */
export function isJsonRpcBody(json: unknown): boolean {
  const one = (v: unknown): boolean =>
    isObject(v) && (v.jsonrpc !== undefined || 'result' in v || 'error' in v);
  return Array.isArray(json) ? json.some(one) : one(json);
}

// Enough of a body to recognise a server's page ("<!DOCTYPE HTML>... Error response ... 501").
const FIRST_CHARS = 100;

/** `HTTP 501, text/html, 497 bytes: "<!DOCTYPE HTML> <html lang=…"`: what one answer was. */
export function answerSeen(res: RecordedResponse | undefined): string {
  if (res === undefined) return 'no answer';
  const type = res.headers['content-type'];
  const body = typeof res.body === 'string' ? res.body.replace(/\s+/g, ' ').trim() : '';
  const first = body.length > FIRST_CHARS ? `${body.slice(0, FIRST_CHARS)}…` : body;
  const bytes = typeof res.bodyBytes === 'number' ? res.bodyBytes : body.length;
  return [
    `HTTP ${res.status}`,
    type === undefined ? 'no content-type' : String(type),
    bytes === 0 ? 'empty body' : `${bytes} bytes: ${JSON.stringify(first)}`,
  ].join(', ');
}

function urlOf(ex: Exchange): string {
  try {
    return withoutCredentials(ex.request.url);
  } catch {
    return String(ex.request.url);
  }
}

/**
 * The run cannot be done: neither the card request nor the plain message/send got a JSON-RPC answer
 * from the agent's path. `turn` is absent when the probe did not get to send it.
 */
export function notAnAgent(card: Exchange, turn: Exchange | undefined): string {
  const answers = [`agent/authenticatedExtendedCard got ${answerSeen(card.response)}`];
  if (turn !== undefined) {
    const same = answerSeen(turn.response) === answerSeen(card.response);
    answers.push(`message/send got ${same ? 'the same' : answerSeen(turn.response)}`);
  }
  return (
    `the target is not an A2A agent: no JSON-RPC answer from ${urlOf(card)} (${answers.join('; ')}). ` +
    'Check --target (the base URL; the harness adds /api/v1/a2a/{agent-id}) and --agent-id'
  );
}

/** The credential was refused (HTTP 401 or 403, or -32010): which option carries it, and what to try. */
export function credentialRefused(
  res: RecordedResponse,
  code: unknown,
  auth: { apiKey?: string; bearer?: string },
): string {
  const seen = `HTTP ${res.status}${code === undefined ? '' : `, code ${String(code)}`}`;
  const page = isJsonRpcBody(res.json) ? '' : ` (answered ${answerSeen(res)})`;
  const fix =
    auth.apiKey !== undefined
      ? 'check the key given with --api-key (A2A_API_KEY, sent as x-api-key), or give --bearer <token> (A2A_BEARER) if the agent wants Authorization: Bearer'
      : auth.bearer !== undefined
        ? 'check the token given with --bearer (A2A_BEARER, sent as Authorization: Bearer), or give --api-key <key> (A2A_API_KEY) if the agent wants x-api-key'
        : "give the agent's credential with --api-key <key> (A2A_API_KEY) or --bearer <token> (A2A_BEARER)";
  return `credential refused by the target (${seen})${page}: ${fix}; a gateway's own key goes in --secret-header`;
}
