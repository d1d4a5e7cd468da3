// The client checks of each scenario's own requirements (spec 2.5, 4.1, 4.2, 4.4, 4.9, 7; rulings
// C-74 to C-76): what the driver printed, and what the scenario server saw it send.
import { is } from '../check/matchers.ts';
import type { CheckRecorder } from '../check/recorder.ts';
import type { Exchange } from '../../core/evidence.ts';
import {
  answerResult,
  BASE64,
  CLOSE_WITHIN_MS,
  evidence,
  expectOutput,
  finalEvent,
  is5xx,
  isMessage,
  json,
  MAX_ATTEMPTS,
  methodRequests,
  replyText,
  requests,
  type ClientCheckDef,
  type Json,
  type ScenarioRun,
} from './client-evidence.ts';
import type { SeenRequest } from './scenario-server.ts';
import type { Scenario } from './scenarios.ts';

function streamOutcome(run: ScenarioRun, rec: CheckRecorder, ev: Exchange[]): void {
  const streams = methodRequests(run, rec, ev, 'message/stream');
  const final = streams.map(finalEvent).find((e) => e !== undefined);
  // The stream had begun (the server sends `: ping` first): a client that left before its end failed it.
  if (final === undefined && streams.some((s) => s.stream !== undefined)) {
    return rec.fail('the client closed the stream before its final event');
  }
  if (final === undefined) return rec.notExercised('no stream was answered with an event stream');
  expectOutput(rec, run, replyText(final.result) ?? '');
}

const acceptsStream: ClientCheckDef = {
  requirementId: '4/client-accept-event-stream',
  title: 'message/stream is sent with Accept: text/event-stream',
  check(run, rec, ev) {
    for (const s of methodRequests(run, rec, ev, 'message/stream')) {
      rec.check(
        `request ${s.seq} accept`,
        s.headers.accept,
        is.matching(/(^|,)\s*text\/event-stream\s*(;|,|$)/i),
      );
    }
  },
};

const closesOnFinal: ClientCheckDef = {
  requirementId: '4.2/client-closes-on-final',
  title: `the stream is closed within ${CLOSE_WITHIN_MS} ms of the final event (the server holds it open)`,
  check(run, rec, ev) {
    const reachedFinal = (s: SeenRequest): boolean => s.stream?.finalAtMs !== undefined;
    for (const s of requests(run, rec, ev, reachedFinal, 'a stream that reached its final event')) {
      const ms =
        s.stream!.closedAtMs === undefined
          ? 'never closed by the client'
          : Math.round(s.stream!.closedAtMs - s.stream!.finalAtMs!);
      rec.check(
        `request ${s.seq}: ms from the final event to the client closing`,
        ms,
        is.atMost(CLOSE_WITHIN_MS),
      );
    }
  },
};

/** The checks of one scenario's own requirements. */
export const SCENARIO_CHECKS: Readonly<Record<Scenario, readonly ClientCheckDef[]>> = {
  send: [
    {
      requirementId: '4.1/client-reads-reply-text',
      title: 'send: the driver prints the text parts of result.status.message',
      check(run, rec, ev) {
        const result = methodRequests(run, rec, ev, 'message/send')
          .map(answerResult)
          .find((r) => r !== undefined);
        if (result === undefined) return rec.notExercised('no message/send got a result');
        expectOutput(rec, run, replyText(result) ?? '');
      },
    },
  ],
  stream: [
    acceptsStream,
    {
      requirementId: '4.2/client-reads-final-event',
      title: 'stream: the driver prints the reply of the final event',
      check: streamOutcome,
    },
    {
      requirementId: '4.2/client-ignores-ping',
      title: 'stream: `: ping` before and between events change nothing the driver prints',
      check: streamOutcome,
    },
    {
      requirementId: '4.2/client-reassembles-split-events',
      title: 'stream: events written in pieces are read whole',
      check: streamOutcome,
    },
    closesOnFinal,
  ],
  'multi-turn': [
    {
      requirementId: '4.9/client-carries-context-id',
      title: 'multi-turn: the second message carries the contextId of the first answer; both replies printed',
      check(run, rec, ev) {
        const messages = requests(run, rec, ev, isMessage, 'messages');
        rec.check('messages sent', messages.length, is.atLeast(2));
        const [first, second] = messages;
        if (first === undefined || second === undefined) return;
        const result = answerResult(first) ?? finalEvent(first)?.result;
        const contextId = result?.contextId;
        if (typeof contextId !== 'string') return rec.notExercised('the first answer carried no contextId');
        rec.check('second message params.contextId', json(second).params?.contextId, contextId);
        const secondResult = answerResult(second) ?? finalEvent(second)?.result;
        expectOutput(rec, run, `${replyText(result) ?? ''}\n${replyText(secondResult) ?? ''}`);
      },
    },
  ],
  file: [
    {
      requirementId: '2.5/client-file-bytes-base64',
      title: 'file: file.bytes is the Base64 of A2A_FILE, without a data: prefix',
      check(run, rec, ev) {
        for (const part of fileParts(run, rec, ev)) {
          const bytes = part.file?.bytes;
          rec.check(
            'file.bytes',
            typeof bytes === 'string' && bytes.startsWith('data:') ? bytes.slice(0, 40) : typeof bytes,
            'string',
          );
          if (typeof bytes !== 'string') continue;
          rec.check('file.bytes is Base64', BASE64.test(bytes), true);
          rec.check(
            'file.bytes decodes to the bytes of A2A_FILE',
            Buffer.from(bytes, 'base64').equals(run.file!),
            true,
          );
        }
      },
    },
    {
      requirementId: '2.5/client-file-name-mime',
      title: 'file: the file part has a name and a mimeType',
      check(run, rec, ev) {
        for (const part of fileParts(run, rec, ev)) {
          rec.check('file.name', part.file?.name, is.nonEmptyString());
          rec.check('file.mimeType', part.file?.mimeType, is.nonEmptyString());
        }
      },
    },
    {
      requirementId: '4.9/client-sends-file-part',
      title: 'file: one message carries the text "file" and a part of type file',
      check(run, rec, ev) {
        const parts = fileParts(run, rec, ev);
        const message = run.requests
          .filter(isMessage)
          .map((s) => json(s).params?.message as Json | undefined)
          .find((m) => Array.isArray(m?.parts) && m.parts.some((p: Json) => p?.type === 'file'));
        rec.check(
          'text parts beside the file part',
          (message?.parts ?? []).filter((p: Json) => p?.type === 'text').map((p: Json) => p.text),
          is.where('includes "file"', (t) => Array.isArray(t) && t.includes('file')),
        );
        rec.check('file parts', parts.length, is.atLeast(1));
        rec.check(
          'driver exit',
          run.driver.killed
            ? 'killed at the scenario budget'
            : (run.driver.spawnError ?? run.driver.exitCode),
          0,
        );
      },
    },
  ],
  cancel: [
    acceptsStream,
    closesOnFinal,
    {
      requirementId: '4.4/client-cancels-by-task-id',
      title:
        'cancel: tasks/cancel names the streamed task in params.taskId; the driver prints the state of the cancel result',
      check(run, rec, ev) {
        const streams = methodRequests(run, rec, ev, 'message/stream');
        const cancels = run.requests.filter((s) => s.rpcMethod === 'tasks/cancel');
        evidence(run, ev, cancels);
        const taskId = ((streams[0]?.answer?.events ?? []) as Json[])
          .map((e) => e?.result?.id)
          .find((id) => typeof id === 'string');
        if (taskId === undefined) return rec.notExercised('the stream carried no task id');
        rec.check('tasks/cancel requests', cancels.length, is.atLeast(1));
        const cancel = cancels.at(-1);
        if (cancel === undefined) return;
        rec.check('tasks/cancel params.taskId', json(cancel).params?.taskId, taskId);
        const state = answerResult(cancel)?.status?.state;
        expectOutput(rec, run, typeof state === 'string' ? state : 'canceled');
      },
    },
  ],
  retry: [
    {
      requirementId: '7/client-retries-transient',
      title: "retry: the message/send answered 503 is retried and the retry's reply printed",
      check(run, rec, ev) {
        const sends = methodRequests(run, rec, ev, 'message/send');
        rec.check('message/send attempts', sends.length, is.atLeast(2, 'the 503, then a retry'));
        const answered = sends.find((s) => !is5xx(s) && answerResult(s) !== undefined);
        expectOutput(rec, run, replyText(answerResult(answered)) ?? '(no retry was answered)');
      },
    },
    {
      requirementId: '7/client-retries-bounded',
      title: `retry: at most ${MAX_ATTEMPTS} attempts, none after an answer that is not 5xx`,
      check(run, rec, ev) {
        const sends = methodRequests(run, rec, ev, 'message/send');
        rec.check('message/send attempts', sends.length, is.atMost(MAX_ATTEMPTS));
        const settled = sends.findIndex((s) => !is5xx(s));
        rec.check(
          'attempts after the first answer that is not 5xx',
          settled < 0 ? 0 : sends.length - settled - 1,
          0,
        );
      },
    },
  ],
  error: [
    {
      requirementId: '7/client-no-retry-non-transient',
      title:
        'error: the message/send answered with a JSON-RPC error is sent once; the driver prints the code',
      check(run, rec, ev) {
        const sends = methodRequests(run, rec, ev, 'message/send');
        rec.check('message/send attempts', sends.length, 1);
        const code = (sends[0]?.answer?.json as Json | undefined)?.error?.code;
        expectOutput(rec, run, String(code ?? -32603));
      },
    },
  ],
};

function fileParts(run: ScenarioRun, rec: CheckRecorder, ev: Exchange[]): Json[] {
  const messages = requests(run, rec, ev, isMessage, 'messages');
  const parts = messages.flatMap((s) => {
    const p = json(s).params?.message?.parts;
    return Array.isArray(p) ? (p as Json[]).filter((x) => x?.type === 'file') : [];
  });
  if (parts.length === 0) rec.check('parts of type file', 0, is.atLeast(1));
  return parts;
}
