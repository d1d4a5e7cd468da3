// 4.2 message/stream, the stream of a valid request (rulings C-31, C-27): Content-Type, one JSON-RPC
// response per data: line, task results, final false until exactly one last final event carrying the
// reply, the submitted -> working -> final order, the server closing the stream, framing and pings.
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { directivePart, directivesHonoured } from '../support/directives.ts';
import { onceShared } from '../support/made-once.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { resultOfEvent } from '../support/rpc.ts';
import {
  checkContentType,
  checkDataIsResponse,
  checkEventTasks,
  checkIntermediateNotFinal,
  checkSingleFinal,
  eventSummary,
  foldedStates,
  requireAnswered,
  requireEnded,
  runStream,
  type StreamRun,
} from '../support/streams.ts';
import { eventState } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 1, turns: 1 },
});

const sample = onceShared<StreamRun>();

/** One stream for every field check of this file: scripted (200 ms, two progress steps) when possible. */
function sampleStream(c: CheckContext): Promise<StreamRun> {
  return sample(c, async (c) => {
    const parts = (await directivesHonoured(c))
      ? [textPart('hello stream'), directivePart({ delayMs: 200, progressSteps: 2 })]
      : [textPart('hello stream')];
    return runStream(c, 'message/stream', messageParams(parts));
  });
}

verifies('4.2/stream-content-type-sse', 'a valid message/stream answers text/event-stream', async (c) => {
  const { t } = await sampleStream(c);
  requireAnswered(t);
  checkContentType(c, t);
});

verifies('4.2/stream-event-data-line', 'every event data is one JSON-RPC response object', async (c) => {
  checkDataIsResponse(c, (await sampleStream(c)).t);
});

verifies('4.2/stream-event-task', 'every event result is a task with id, status.state, final', async (c) => {
  const { t } = await sampleStream(c);
  c.require('number of SSE events', t.events.length, is.atLeast(1));
  checkEventTasks(c, t);
});

verifies(
  '4.2/stream-intermediate-not-final',
  'every event before the last carries final false',
  async (c) => {
    const { t } = await sampleStream(c);
    requireEnded(c, t);
    c.info('events', eventSummary(t));
    // With fewer than two events there is no event before the last (4.2/stream-event-sequence
    // grades the missing ones): nothing to grade here.
    if (t.events.length < 2)
      c.notExercised(`the stream sent ${t.events.length} event(s), none before the last`);
    checkIntermediateNotFinal(c, t);
  },
);

verifies('4.2/stream-single-final-event', 'exactly one final event, final state, last', async (c) => {
  checkSingleFinal(c, (await sampleStream(c)).t);
});

verifies('4.2/stream-single-final-event', 'a completed final event carries the agent reply', async (c) => {
  const { t } = await sampleStream(c);
  requireEnded(c, t);
  const last = t.events[t.events.length - 1];
  if (eventState(last) !== 'completed') c.notExercised(`the sample task ended ${String(eventState(last))}`);
  const status = resultOfEvent(last)?.status as { message?: { role?: unknown; parts?: unknown } };
  c.check('final status.message.role', status.message?.role, 'agent');
  c.check('final status.message.parts', status.message?.parts, is.where('a non-empty array', nonEmptyArray));
});

function nonEmptyArray(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0;
}

/** C-31: submitted, then working (one or more, with progress), then one final state. */
function orderHolds(folded: readonly unknown[]): boolean {
  return (
    folded.length === 3 &&
    folded[0] === 'submitted' &&
    folded[1] === 'working' &&
    ['completed', 'failed', 'canceled'].includes(folded[2] as string)
  );
}

verifies('4.2/stream-event-sequence', 'events go submitted, working with progress, then final', async (c) => {
  const { t } = await sampleStream(c);
  requireEnded(c, t);
  const folded = foldedStates(t);
  c.check(
    'states in order (repeats folded)',
    folded,
    is.where('[submitted, working, <final state>]', () => orderHolds(folded)),
  );
  const noProgress = t.events
    .filter((ev) => eventState(ev) === 'working')
    .filter((ev) => typeof (resultOfEvent(ev)?.status as { progress?: unknown }).progress !== 'object')
    .map((ev) => ev.index);
  c.check('working events without status.progress', noProgress, []);
});

verifies(
  '4.2/stream-closed-after-final',
  'the server closes the stream right after the final event',
  async (c) => {
    const { t } = await sampleStream(c);
    requireEnded(c, t);
    c.require('final event received', t.finalIndex, is.type('number'));
    c.check('stream closed by', t.closedBy, 'server');
    // Comment lines (a last `: ping`) carry no event: the stream still ends after the final event.
    const after = t.afterFinalText;
    const onlyComments = after.split(/\r\n|\r|\n/).every((line) => line === '' || line.startsWith(':'));
    c.check('bytes after the final event, other than comment lines', onlyComments ? '' : after, '');
    if (after !== '' && onlyComments) c.info('comment lines after the final event (no event, legal)', after);
  },
);

verifies('4.2/stream-framing', 'one compact data: line per event, no event/id lines, no-cache', async (c) => {
  const { t } = await sampleStream(c);
  requireEnded(c, t);
  const odd = t.events
    .map((ev) => ({
      index: ev.index,
      dataLines: ev.dataLines,
      eventField: ev.hasEventField,
      idField: ev.hasIdField,
      otherFields: ev.otherFields,
      compact: ev.json !== undefined && ev.data === JSON.stringify(ev.json),
    }))
    .filter((f) => f.dataLines !== 1 || f.eventField || f.idField || f.otherFields.length > 0 || !f.compact);
  c.check('events not framed as one compact data: line', odd, []);
  c.check('unterminated event text at the end', t.incompleteTail, '');
  c.check('Cache-Control', t.headers['cache-control'], is.matching(/no-cache/i));
});

/** An advertised keep-alive interval (card extension `limits.keepAliveMs`) short enough to observe. */
function keepAliveMs(c: CheckContext): number | undefined {
  const limits = (c.card as { limits?: { keepAliveMs?: unknown } } | null)?.limits;
  const ms = limits?.keepAliveMs;
  return typeof ms === 'number' && ms > 0 && ms <= 800 ? ms : undefined;
}

verifies(
  '4.2/stream-keep-alive',
  'keep-alive lines are `: ping` comments that carry no event',
  async (c) => {
    const interval = keepAliveMs(c);
    const honoured = await directivesHonoured(c);
    // Long enough to span two keep-alive intervals when one is advertised.
    const delayMs = interval !== undefined && honoured ? Math.min(2 * interval + 50, 2_000) : 200;
    const parts = honoured ? [textPart('ping'), directivePart({ delayMs })] : [textPart('ping')];
    const { t } = await runStream(c, 'message/stream', messageParams(parts));
    requireEnded(c, t);
    const texts = t.comments.map((m) => m.text);
    c.info(`comments seen in a ${delayMs} ms stream`, texts);
    c.check(
      'comment lines other than `: ping`',
      texts.filter((x) => x.trim() !== 'ping'),
      [],
    );
    const asEvents = t.events.filter((ev) => ev.json === undefined).map((ev) => ev.data.slice(0, 100));
    c.check('events whose data is not JSON (a keep-alive sent as an event)', asEvents, []);
    if (interval !== undefined && honoured) {
      c.check(
        `\`: ping\` comments within ${delayMs} ms (interval ${interval} ms)`,
        texts.length,
        is.atLeast(1),
      );
    }
  },
  { concurrent: true },
);
