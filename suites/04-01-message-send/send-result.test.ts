// Spec 4.1 (message/send): the result is a Task with id, status, contextId and final true, in a
// state other than submitted, with the reply in status.message (role agent); C-25 for a send ended
// by the system timeout (C-05, read from the card extension limits.systemTimeoutMs); properties over
// any valid message (2.3-2.5).
import fc from 'fast-check';
import { is, suiteFile, typeOf, verifies } from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { requireCardLimit } from '../support/card.ts';
import { directivePart, requireDirectives } from '../support/directives.ts';
import { arbMessageParts, messageParams, sendsValidTask, sendText, textPart } from '../support/messages.ts';
import { responseOf, type JsonObject } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { checkSchema, requireObject } from '../support/schemas.ts';
import { FINAL_STATES, requireCompletedTask, stateOf, statusOf } from '../support/tasks.ts';
import { timed } from '../support/timing.ts';

suiteFile({
  cost: { requests: 1, turns: 1 },
  span: 'long',
});

const SEND_STATES = ['completed', 'working', 'failed', 'canceled'];

/** One plain message per file: the field checks below only read its result. */
const sample = sharedSample('sample', { requests: 0, turns: 0 }, (c) => sendText(c, 'hello, conformance'));

/** A task the agent fails on purpose (docs/directives.md `fail`); short, for agents with a small maxMessageLength. */
const failedSample = sharedSample('failedSample', { requests: 0, turns: 0 }, (c) =>
  c.rpc('message/send', messageParams([textPart('f'), directivePart({ fail: 'scripted' })])),
);

function requireTask(c: CheckContext, ex: AnsweredExchange): JsonObject {
  return requireObject(c, 'type of result', responseOf(ex)?.result);
}

function checkSendResultFields(c: CheckContext, task: JsonObject): void {
  c.check('result.id', task.id, is.nonEmptyString());
  c.check('type of result.status', typeOf(task.status), 'object');
  c.check('result.contextId', task.contextId, is.nonEmptyString());
  c.check('result.final', task.final, true);
  checkSchema(c, 'send-result', task);
}

verifies(
  '4.1/send-timeout-result',
  'a send ended by the system timeout returns canceled, reason "system timeout", final true',
  async (c) => {
    const timeoutMs = requireCardLimit(
      c,
      'systemTimeoutMs',
      ' (C-05 extension): the timeout cannot be awaited',
    );
    // It overlaps the file's other checks (concurrent); a long timeout only with --max-wait.
    c.planWait(timeoutMs, `limits.systemTimeoutMs ${timeoutMs} ms`);
    await requireDirectives(c, 'a task that keeps working until the system timeout');
    const params = messageParams([textPart('t'), directivePart({ runUntilCanceled: true })]);
    const { value: ex, ms } = await timed(() =>
      c.rpc('message/send', params, { timeoutMs: timeoutMs + 10_000 }),
    );
    const task = requireTask(c, ex);
    c.check('status.state', stateOf(task), 'canceled');
    c.check('status.reason', statusOf(task)?.reason, 'system timeout');
    c.check('final', task.final, true);
    c.info(`message/send answered after ${ms} ms (limits.systemTimeoutMs ${timeoutMs})`);
  },
  { concurrent: true },
);

// Any valid message yields a valid Task; the two properties run beside the timeout check above and the checks below (concurrent),
// each waiting on one request at a time, with the run's --runs and --seed.
verifies(
  '4.1/send-result-final-true',
  'any valid message yields a send-result with final true',
  async (c) => {
    await c.property('every generated message/send result', arbMessageParts(c), (parts) =>
      sendsValidTask(c, parts),
    );
  },
  { concurrent: true, property: { requests: 1, turns: 1 } },
);

// Another arbitrary than above (an optional sessionId, 2.6), so the two checks do not replay one case list.
verifies(
  '4.1/send-result-states',
  'any valid message, with or without sessionId, yields a Task in a send state',
  async (c) => {
    const sessionId = fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: undefined });
    await c.property(
      'every generated message/send result',
      fc.tuple(arbMessageParts(c), sessionId),
      ([parts, id]) => sendsValidTask(c, parts, id === undefined ? {} : { sessionId: id }),
    );
  },
  { concurrent: true, property: { requests: 1, turns: 1 } },
);

verifies(
  '4.1/send-result-final-true',
  'a completed result carries id, status, contextId and final true',
  async (c) => {
    checkSendResultFields(c, requireTask(c, await sample(c)));
  },
  { concurrent: true },
);

verifies(
  '4.1/send-result-final-true',
  'a failed result carries id, status, contextId and final true',
  async (c) => {
    await requireDirectives(c, 'a task that fails');
    const task = requireTask(c, await failedSample(c));
    c.check('status.state', stateOf(task), 'failed');
    checkSendResultFields(c, task);
  },
  { concurrent: true },
);

verifies(
  '4.1/send-result-states',
  'a plain message comes back in a documented state, not submitted',
  async (c) => {
    c.check('status.state', stateOf(requireTask(c, await sample(c))), is.oneOf(SEND_STATES));
  },
  { concurrent: true },
);

verifies(
  '4.1/send-result-states',
  'a failing task comes back failed, not submitted or working',
  async (c) => {
    await requireDirectives(c, 'a task that fails');
    c.check('status.state', stateOf(requireTask(c, await failedSample(c))), 'failed');
  },
  { concurrent: true },
);

verifies(
  '4.1/send-blocks-until-final',
  'a plain message comes back in a final state',
  async (c) => {
    c.check('status.state', stateOf(requireTask(c, await sample(c))), is.oneOf([...FINAL_STATES]));
  },
  { concurrent: true },
);

verifies(
  '4.1/send-blocks-until-final',
  'a task working 200 ms with progress is answered once completed',
  async (c) => {
    await requireDirectives(c, 'a task that works for a while');
    const params = messageParams([textPart('d'), directivePart({ delayMs: 200, progressSteps: 2 })]);
    const { value: ex, ms } = await timed(() => c.rpc('message/send', params));
    const task = requireTask(c, ex);
    c.check('status.state', stateOf(task), 'completed');
    c.check('status.progress', statusOf(task)?.progress, is.absent());
    c.check('ms until the answer', ms, is.atLeast(200, 'the task works 200 ms'));
  },
  { concurrent: true },
);

verifies(
  '4.1/reply-in-status-message',
  'the reply is in status.message: role agent, text parts',
  async (c) => {
    const task = requireTask(c, await sample(c));
    requireCompletedTask(c, task, 'the plain message');
    c.require('status.state', stateOf(task), 'completed');
    const message = statusOf(task)?.message as JsonObject | undefined;
    c.check('status.message.role', message?.role, 'agent');
    const parts = Array.isArray(message?.parts) ? (message.parts as unknown[]) : undefined;
    c.check('type of status.message.parts', typeOf(message?.parts), 'array');
    const texts = (parts ?? []).filter((p) => typeof (p as JsonObject | null)?.text === 'string');
    c.check('text parts in status.message.parts', texts.length, is.atLeast(1));
    checkSchema(c, 'agent-message', message, 'status.message');
  },
  { concurrent: true },
);
