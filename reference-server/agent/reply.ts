// The exact reply text of the reference agent (docs/directives.md "Reply format"): one line per
// fact, each `<keyword> <compact JSON>`, so replies are deterministic and machine-readable (spec 4.1, 4.9).
import { randomUUID } from 'node:crypto';
import type { Message, Part } from '../types.ts';
import type { Directive } from './directives.ts';

export interface ReplyInput {
  directive: Directive;
  content: string;
  parts: readonly Part[];
  turn: number;
  history: readonly string[];
}

/** Decoded size of strict Base64 text without decoding it. */
export function decodedByteCount(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

export function replyText(input: ReplyInput): string {
  const lines = [`echo ${JSON.stringify(input.content)}`];
  if (input.directive.echoFiles) {
    for (const part of input.parts) {
      if (part.type !== 'file') continue;
      const { name, mimeType, bytes } = part.file;
      lines.push(`file ${JSON.stringify({ name, mimeType, bytes: decodedByteCount(bytes) })}`);
    }
  }
  if (input.directive.turn) {
    lines.push(`turn ${input.turn}`);
    lines.push(`history ${JSON.stringify(input.history)}`);
  }
  return lines.join('\n');
}

export function agentMessage(text: string): Message {
  return { role: 'agent', messageId: randomUUID(), parts: [{ type: 'text', text }] };
}
