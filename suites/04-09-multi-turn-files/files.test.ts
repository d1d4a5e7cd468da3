// Spec 4.9 item 3 (several file parts alongside text parts) with 2.5 and the card's file rules
// (2.14, C-22): one file, one file of every supported type, and, with the `echoFiles` directive
// (docs/directives.md), each file received with its name, type and decoded size.
import { suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { requireSupportedTypes } from '../support/card.ts';
import { directivePart, replyFacts, requireDirectives } from '../support/directives.ts';
import { filePart, messageParams, textPart } from '../support/messages.ts';
import { responseOf, resultOf, type JsonObject } from '../support/rpc.ts';
import { checkSchema } from '../support/schemas.ts';
import { replyText } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 1, turns: 1 },
});

interface SentFile {
  name: string;
  mimeType: string;
  content: Buffer;
}

/** One small file per supported type, at least three, with distinct names and sizes. */
function filesOfEveryType(c: CheckContext): SentFile[] {
  const types = requireSupportedTypes(c);
  const count = Math.max(3, types.length);
  return Array.from({ length: count }, (_, i) => ({
    name: `conformance-${i + 1}.dat`,
    mimeType: types[i % types.length]!,
    content: Buffer.from(`file ${i + 1} `.repeat(i + 1), 'utf8'),
  }));
}

function partsOf(files: readonly SentFile[]): JsonObject[] {
  return files.map((f) => filePart(f.name, f.mimeType, f.content));
}

async function checkAccepted(c: CheckContext, parts: JsonObject[]): Promise<JsonObject | undefined> {
  const ex = await c.rpc('message/send', messageParams(parts));
  c.check('error', responseOf(ex)?.error, undefined);
  checkSchema(c, 'send-result', resultOf(ex), 'message/send result');
  return resultOf(ex);
}

verifies('4.9/files-alongside-text', 'one file part beside a text part is accepted', async (c) => {
  const [first] = filesOfEveryType(c);
  await checkAccepted(c, [textPart('one file attached'), ...partsOf([first!])]);
});

verifies(
  '4.9/files-alongside-text',
  'a file of every supported type between text parts is accepted',
  async (c) => {
    const files = filesOfEveryType(c);
    await checkAccepted(c, [textPart('several files:'), ...partsOf(files), textPart('end of files')]);
  },
);

verifies('4.9/files-alongside-text', 'every file part reaches the agent intact and in order', async (c) => {
  await requireDirectives(c, 'reading back the files the agent received');
  const files = filesOfEveryType(c);
  const parts = [textPart('echo the files'), ...partsOf(files), directivePart({ echoFiles: true })];
  const task = await checkAccepted(c, parts);
  const facts = replyFacts(replyText(task));
  c.check('echo line', facts.echo, 'echo the files');
  c.check(
    'file lines',
    facts.files,
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, bytes: f.content.length })),
  );
});
