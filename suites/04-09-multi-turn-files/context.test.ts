// Spec 4.9 (multi-turn) and 2.6: contextId returned, distinct per conversation and kept over several
// turns; the conversation context (the `turn` directive, docs/directives.md) never leaks between
// contexts; an unknown contextId (C-15, INFO) and a sessionId (2.6) on message/send. Each check
// opens its own conversations, so the checks run concurrently.
import { ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { directivePart, replyFacts, requireDirectives } from '../support/directives.ts';
import { errorData } from '../support/errors.ts';
import { sendTask, sendText, textPart, unknownId } from '../support/messages.ts';
import { errorOf, resultOf, type JsonObject } from '../support/rpc.ts';
import { checkSchema } from '../support/schemas.ts';
import { replyText } from '../support/tasks.ts';
import { READS_A_SAMPLE, sharedSample } from '../support/samples.ts';

suiteFile({
  cost: { requests: 3, turns: 3 },
  span: 'long',
});

/** Sends one turn; with `turn` the agent adds its turn and history lines (directives.md section 4). */
async function turn(
  c: CheckContext,
  text: string,
  contextId?: string,
  withTurn = false,
): Promise<JsonObject> {
  const parts = withTurn ? [textPart(text), directivePart({ turn: true })] : [textPart(text)];
  const { task } = await sendTask(c, parts, contextId === undefined ? {} : { contextId });
  return task;
}

function contextOf(c: CheckContext, task: JsonObject, label: string): string {
  c.require(label, task.contextId, is.nonEmptyString());
  return task.contextId as string;
}

/**
 * A conversation of four turns, the last three sent with the contextId the first returned (none when
 * it returned none): its first turn is also the "first message" of the returned and distinct checks.
 */
const conversation = sharedSample(
  'a conversation of four turns',
  // Four message/send turns, the last three with the contextId the first returned.
  { requests: 4, turns: 4 },
  async (c: CheckContext) => {
    const first = await turn(c, 'turn one');
    const contextId =
      typeof first.contextId === 'string' && first.contextId !== '' ? first.contextId : undefined;
    const later: JsonObject[] = [];
    if (contextId !== undefined) for (const n of [2, 3, 4]) later.push(await turn(c, `turn ${n}`, contextId));
    return { first, later };
  },
);

verifies(
  '4.9/context-id-returned',
  'the first message of a conversation returns a contextId',
  async (c) => {
    const { first } = await conversation(c);
    c.check('result.contextId', first.contextId, is.nonEmptyString());
  },
  { concurrent: true, cost: READS_A_SAMPLE },
);

verifies(
  '4.9/context-id-distinct',
  'two messages without contextId get different contextIds',
  async (c) => {
    const first = contextOf(c, (await conversation(c)).first, 'first contextId');
    const second = contextOf(c, await turn(c, 'conversation two'), 'second contextId');
    c.check(
      'second contextId',
      second,
      is.where(`other than ${JSON.stringify(first)}`, (v) => v !== first),
    );
  },
  { concurrent: true, cost: { requests: 1, turns: 1 } },
);

verifies(
  '4.9/context-id-continues',
  'four turns sent with the returned contextId keep it',
  async (c) => {
    const { first, later } = await conversation(c);
    const contextId = contextOf(c, first, 'turn 1 contextId');
    const taskIds = new Set([first.id]);
    for (const [i, task] of later.entries()) {
      c.check(`turn ${i + 2} contextId`, task.contextId, contextId);
      taskIds.add(task.id);
    }
    c.check('distinct task ids over the four turns', taskIds.size, 4);
  },
  { concurrent: true, cost: READS_A_SAMPLE },
);

verifies(
  '4.9/context-kept',
  'the third turn is answered with the two earlier turns',
  async (c) => {
    await requireDirectives(c, 'reading the conversation the agent keeps');
    const contextId = contextOf(c, await turn(c, 'hello', undefined, true), 'turn 1 contextId');
    await turn(c, 'how are you', contextId, true);
    const facts = replyFacts(replyText(await turn(c, 'and now?', contextId, true)));
    c.check('turn line', facts.turn, 3);
    c.check('history line', facts.history, ['hello', 'how are you']);
  },
  { concurrent: true },
);

verifies(
  '4.9/context-kept',
  'two interleaved conversations never see each other',
  async (c) => {
    await requireDirectives(c, 'reading the conversation the agent keeps');
    const a = contextOf(c, await turn(c, 'alpha one', undefined, true), 'conversation A contextId');
    const b = contextOf(c, await turn(c, 'beta one', undefined, true), 'conversation B contextId');
    const a2 = replyFacts(replyText(await turn(c, 'alpha two', a, true)));
    const b2 = replyFacts(replyText(await turn(c, 'beta two', b, true)));
    const fresh = replyFacts(replyText(await turn(c, 'gamma one', undefined, true)));
    c.check('A turn 2: turn line', a2.turn, 2);
    c.check('A turn 2: history line', a2.history, ['alpha one']);
    c.check('B turn 2: turn line', b2.turn, 2);
    c.check('B turn 2: history line', b2.history, ['beta one']);
    c.check('a new conversation: turn line', fresh.turn, 1);
    c.check('a new conversation: history line', fresh.history, []);
  },
  { concurrent: true },
);

verifies(
  '2.6/unknown-context-id',
  'a contextId the agent never returned gets -32602 (C-15)',
  async (c) => {
    const ex = await sendText(c, 'continue what?', { contextId: unknownId('conformance-unknown-context') });
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
    c.check('error.data.field', errorData(ex)?.field, 'contextId');
    c.check('result', resultOf(ex), is.absent());
  },
  { concurrent: true, crossSection: 'graded on the multi-turn context sample' },
);

verifies(
  '2.6/session-id-accepted',
  'messages carrying a sessionId are accepted',
  async (c) => {
    const sessionId = unknownId('conformance-session');
    const first = await sendText(c, 'in a session', { sessionId });
    checkSchema(c, 'send-result', resultOf(first), 'first message/send result');
    const second = await sendText(c, 'same session, another message', { sessionId });
    checkSchema(c, 'send-result', resultOf(second), 'second message/send result');
  },
  { concurrent: true, crossSection: 'graded on the multi-turn context sample' },
);
