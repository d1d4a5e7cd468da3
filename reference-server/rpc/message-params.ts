// Validation of message/send and message/stream params (spec 2.3-2.6, 4.9): the message shape
// (C-14), the agent's limits and file rules (C-22), contextId continuity (C-15) and client task ids (C-16).
import type { AgentConfig, Message, Part } from '../types.ts';
import type { TaskTable } from '../store/types.ts';
import { fail, invalidParams } from './errors.ts';
import { optionalString, requireObject, requireString, typeName, type Params } from './params.ts';

export interface MessageParams {
  message: Message;
  contextId?: string;
  sessionId?: string;
  taskId?: string;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Unicode code points, the unit of maxMessageLength (C-22). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

/**
 * Strict RFC 4648 Base64 (C-14): the decoder skips characters outside the alphabet, accepts the
 * URL-safe alphabet and missing padding, so re-encoding reproduces the text only when it was strict
 * (no `data:` prefix, whitespace, `-`/`_`, missing `=` or non-zero padding bits). Linear in the
 * length: a regular expression over a 7 MB string overflows V8's stack.
 */
export function isStrictBase64(text: string): boolean {
  return Buffer.from(text, 'base64').toString('base64') === text;
}

function readPart(raw: unknown, at: string): Part {
  const part = requireObject(raw, at);
  const type = requireString(part.type, `${at}.type`);
  if (type === 'text') {
    if (part.text === undefined) fail(invalidParams(`${at}.text`, `${at}.text is required for a text part`));
    if (typeof part.text !== 'string') fail(invalidParams(`${at}.text`, `${at}.text must be a string`));
    return { type: 'text', text: part.text };
  }
  if (type !== 'file')
    fail(invalidParams(`${at}.type`, `${at}.type must be "text" or "file", got "${type}"`));
  const file = requireObject(part.file, `${at}.file`);
  const name = requireString(file.name, `${at}.file.name`);
  const mimeType = requireString(file.mimeType, `${at}.file.mimeType`);
  if (file.bytes === undefined) fail(invalidParams(`${at}.file.bytes`, `${at}.file.bytes is required`));
  if (typeof file.bytes !== 'string') {
    fail(invalidParams(`${at}.file.bytes`, `${at}.file.bytes must be a string, got ${typeName(file.bytes)}`));
  }
  return { type: 'file', file: { name, mimeType, bytes: file.bytes } };
}

function readMessage(raw: unknown): Message {
  const message = requireObject(raw, 'message');
  const role = requireString(message.role, 'message.role');
  if (role !== 'user') fail(invalidParams('message.role', `message.role must be "user", got "${role}"`));
  const messageId = requireString(message.messageId, 'message.messageId');
  if (!UUID_V4.test(messageId))
    fail(invalidParams('message.messageId', 'message.messageId must be a UUID v4'));
  if (message.parts === undefined) fail(invalidParams('message.parts', 'message.parts is required'));
  if (!Array.isArray(message.parts)) fail(invalidParams('message.parts', 'message.parts must be an array'));
  if (message.parts.length === 0) fail(invalidParams('message.parts', 'message.parts must not be empty'));
  const parts = message.parts.map((part, index) => readPart(part, `message.parts[${index}]`));
  return { role: 'user', messageId, parts };
}

function mimeMatches(mimeType: string, supported: readonly string[]): boolean {
  const essence = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  const [type] = essence.split('/');
  return supported.some((entry) => entry === essence || entry === '*/*' || entry === `${type}/*`);
}

/** C-22: file capability, strict Base64 without data: prefix, supported MIME type, decoded size. */
function checkFile(part: Extract<Part, { type: 'file' }>, at: string, agent: AgentConfig): void {
  const upload = agent.capabilities.fileUpload;
  if (!upload.supported) fail(invalidParams(at, `${at}: this agent does not accept file parts`));
  const { bytes, mimeType } = part.file;
  if (/^data:/i.test(bytes)) {
    fail(invalidParams(`${at}.file.bytes`, `${at}.file.bytes must be plain Base64 without a data: prefix`));
  }
  if (!isStrictBase64(bytes)) fail(invalidParams(`${at}.file.bytes`, `${at}.file.bytes is not valid Base64`));
  if (!mimeMatches(mimeType, upload.supportedTypes)) {
    const details = `${at}.file.mimeType "${mimeType}" is not supported (supported: ${upload.supportedTypes.join(', ')})`;
    fail(invalidParams(`${at}.file.mimeType`, details, { supportedTypes: upload.supportedTypes }));
  }
  const actual = Buffer.byteLength(bytes, 'base64');
  if (actual > upload.maxFileSize) {
    const details = `${at}.file.bytes decodes to ${actual} bytes, over maxFileSize ${upload.maxFileSize}`;
    fail(invalidParams(`${at}.file.bytes`, details, { limit: upload.maxFileSize, actual }));
  }
}

function checkLimits(message: Message, agent: AgentConfig): void {
  const limit = agent.limits.maxMessageLength;
  const lengths = message.parts.map((part) => (part.type === 'text' ? codePointLength(part.text) : 0));
  const actual = lengths.reduce((sum, length) => sum + length, 0);
  let running = 0;
  for (const [index, length] of lengths.entries()) {
    running += length;
    if (running > limit) {
      const field = `message.parts[${index}].text`;
      const details = `message text exceeds maxMessageLength (${actual} > ${limit} characters)`;
      fail(invalidParams(field, details, { limit, actual }));
    }
  }
  message.parts.forEach((part, index) => {
    if (part.type === 'file') checkFile(part, `message.parts[${index}]`, agent);
  });
}

async function checkContext(
  contextId: string | undefined,
  agent: AgentConfig,
  store: TaskTable,
): Promise<void> {
  if (contextId === undefined) return;
  if (!agent.capabilities.multiTurn) {
    fail(invalidParams('contextId', 'this agent does not support multi-turn conversations (contextId)'));
  }
  if (!(await store.hasContext(contextId))) fail(invalidParams('contextId', 'unknown contextId'));
}

export async function readMessageParams(
  params: Params,
  agent: AgentConfig,
  store: TaskTable,
): Promise<MessageParams> {
  const message = readMessage(params.message);
  checkLimits(message, agent);
  const contextId = optionalString(params.contextId, 'contextId');
  await checkContext(contextId, agent, store);
  const sessionId = optionalString(params.sessionId, 'sessionId');
  const taskId = optionalString(params.id, 'id');
  if (taskId !== undefined && (await store.has(taskId))) {
    fail(invalidParams('id', 'task id already exists'));
  }
  const result: MessageParams = { message };
  if (contextId !== undefined) result.contextId = contextId;
  if (sessionId !== undefined) result.sessionId = sessionId;
  if (taskId !== undefined) result.taskId = taskId;
  return result;
}
