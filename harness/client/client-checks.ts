// The client checks graded on every request and every message of every scenario: the envelope
// (spec 2.1), the headers (spec 4, 5) and the message (spec 2.3); rulings C-74, C-77.
import { is } from '../check/matchers.ts';
import type { CheckRecorder } from '../check/recorder.ts';
import {
  driverNote,
  evidence,
  is5xx,
  isMessage,
  json,
  UUID_V4,
  type ClientCheckDef,
  type Json,
  type ScenarioRun,
} from './client-evidence.ts';
import type { SeenRequest } from './scenario-server.ts';

const perRequest = (
  requirementId: string,
  title: string,
  assert: (s: SeenRequest, rec: CheckRecorder, run: ScenarioRun) => void,
): ClientCheckDef => ({
  requirementId,
  title,
  check(run, rec, ev) {
    const all = run.requests;
    driverNote(rec, run.driver);
    if (all.length === 0)
      return rec.notExercised(`the driver sent no request in the ${run.scenario} scenario`);
    evidence(run, ev, all);
    for (const s of all) assert(s, rec, run);
  },
});

const perMessage = (
  requirementId: string,
  title: string,
  assert: (message: Json, rec: CheckRecorder, s: SeenRequest) => void,
): ClientCheckDef => ({
  requirementId,
  title,
  check(run, rec, ev) {
    const messages = run.requests.filter(isMessage);
    driverNote(rec, run.driver);
    if (messages.length === 0)
      rec.notExercised(`the driver sent no message/send or message/stream in the ${run.scenario} scenario`);
    evidence(run, ev, messages);
    for (const s of messages) assert((json(s).params?.message ?? {}) as Json, rec, s);
  },
});

export const EVERY_REQUEST_CHECKS: readonly ClientCheckDef[] = [
  perRequest('2.1/client-jsonrpc-2-0', 'every request has jsonrpc "2.0"', (s, rec) =>
    rec.check(`request ${s.seq} jsonrpc`, json(s).jsonrpc, '2.0'),
  ),
  perRequest(
    '2.1/client-unique-ids',
    'every request has a string id used by no other request (a retry may repeat it)',
    (s, rec, run) => {
      const id = json(s).id;
      rec.check(`request ${s.seq} id`, id, is.type('string'));
      const earlier = run.requests.filter((o) => o.seq < s.seq && json(o).id === id && id !== undefined);
      // C-74: a repeat is a retry only when every earlier request with that id was answered 5xx.
      const reused = earlier.filter((o) => !is5xx(o)).map((o) => o.seq);
      rec.check(
        `request ${s.seq}: earlier requests with id ${JSON.stringify(id)} that were not 5xx`,
        reused,
        [],
      );
    },
  ),
  perRequest(
    '4/client-content-type-json',
    'every request is sent with Content-Type: application/json',
    (s, rec) =>
      rec.check(
        `request ${s.seq} content-type`,
        s.headers['content-type'],
        is.matching(/^application\/json\s*(;|$)/i),
      ),
  ),
  perRequest(
    '4/client-sends-credential',
    'every request carries the API key (x-api-key, or a Bearer token)',
    (s, rec, run) =>
      rec.check(
        `request ${s.seq} credential`,
        s.headers['x-api-key'] ?? s.headers.authorization ?? 'none',
        is.where(
          'x-api-key: <A2A_API_KEY> or Authorization: Bearer <A2A_API_KEY>',
          (v) => v === run.apiKey || v === `Bearer ${run.apiKey}`,
        ),
      ),
  ),
];

export const EVERY_MESSAGE_CHECKS: readonly ClientCheckDef[] = [
  perMessage('2.3/client-role-user', 'every message has role "user"', (m, rec, s) =>
    rec.check(`request ${s.seq} params.message.role`, m.role, 'user'),
  ),
  perMessage('2.3/client-message-id-uuid-v4', 'every message has a UUID v4 messageId', (m, rec, s) =>
    rec.check(`request ${s.seq} params.message.messageId`, m.messageId, is.matching(UUID_V4)),
  ),
];
