// The a2a:directive contract (docs/directives.md): a text part starting with `a2a:directive`
// followed by one JSON object scripts the agent's behaviour, so the harness can drive every state
// and event of spec sections 3, 4 and 6 deterministically.
import type { Part } from '../types.ts';

export const DIRECTIVE_PREFIX = 'a2a:directive';
/** The prefix must be followed by whitespace, `{` or the end of the text (so `a2a:directives` is plain text). */
const DIRECTIVE_START = /^\s*a2a:directive(?=\s|\{|$)/;

export interface Directive {
  delayMs: number;
  progressSteps: number;
  fail?: string;
  runUntilCanceled: boolean;
  finishOnCancel: boolean;
  echoFiles: boolean;
  turn: boolean;
  /** false: tasks/resubscribe on the live task answers -32004 (spec 4.5, 7: no streaming). */
  streamable: boolean;
  /** message/stream sends -32603 after its first event and closes; the task fails internal_error (C-26). */
  streamError: boolean;
  /** The call is answered -32603 before any task is created (an unexpected agent fault). */
  internalError: boolean;
}

export const DIRECTIVE_LIMITS = Object.freeze({ maxDelayMs: 3_600_000, maxProgressSteps: 100 });

const BOOLEAN_FIELDS = [
  'runUntilCanceled',
  'finishOnCancel',
  'echoFiles',
  'turn',
  'streamable',
  'streamError',
  'internalError',
] as const;
const FIELDS: readonly string[] = ['delayMs', 'progressSteps', 'fail', ...BOOLEAN_FIELDS];

/** The behaviour of a message without a directive part: echo at once. */
export const NO_DIRECTIVE: Readonly<Directive> = Object.freeze({
  delayMs: 0,
  progressSteps: 0,
  runUntilCanceled: false,
  finishOnCancel: false,
  echoFiles: false,
  turn: false,
  streamable: true,
  streamError: false,
  internalError: false,
});

export type DirectiveParse =
  { ok: true; directive: Directive; contentTexts: string[] } | { ok: false; message: string };

export function isDirectiveText(text: string): boolean {
  return DIRECTIVE_START.test(text);
}

function integerField(raw: Record<string, unknown>, key: string, max: number): number | string {
  const value = raw[key];
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    return `${key} must be an integer from 0 to ${max}`;
  }
  return value;
}

/** Validates the JSON object of one directive; returns the directive or the problem text. */
export function parseDirectiveObject(raw: unknown): Directive | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return 'the directive must be a JSON object';
  const fields = raw as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) return `unknown directive field "${unknown}"`;
  const delayMs = integerField(fields, 'delayMs', DIRECTIVE_LIMITS.maxDelayMs);
  if (typeof delayMs === 'string') return delayMs;
  const progressSteps = integerField(fields, 'progressSteps', DIRECTIVE_LIMITS.maxProgressSteps);
  if (typeof progressSteps === 'string') return progressSteps;
  const directive: Directive = { ...NO_DIRECTIVE, delayMs, progressSteps };
  for (const key of BOOLEAN_FIELDS) {
    const value = fields[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') return `${key} must be a boolean`;
    directive[key] = value;
  }
  if (fields.fail !== undefined) {
    if (typeof fields.fail !== 'string' || fields.fail.length === 0) return 'fail must be a non-empty string';
    if (directive.runUntilCanceled) return 'fail and runUntilCanceled cannot be combined';
    directive.fail = fields.fail;
  }
  // The stream error decides the outcome (failed, internal_error): no other outcome may compete.
  if (directive.streamError && (directive.fail !== undefined || directive.runUntilCanceled)) {
    return 'streamError cannot be combined with fail or runUntilCanceled';
  }
  return directive;
}

/**
 * Parses already made, per parts array: message/send and message/stream read the same parts twice
 * (the internalError check, then the job). Parts are validated into a fresh array that nothing
 * mutates, so the same array parses the same; a WeakMap keeps no message alive.
 */
const parsedParts = new WeakMap<readonly Part[], DirectiveParse>();

export function parseDirectives(parts: readonly Part[]): DirectiveParse {
  let parse = parsedParts.get(parts);
  if (parse === undefined) {
    parse = readDirectives(parts);
    parsedParts.set(parts, parse);
  }
  return parse;
}

/** Splits a message's parts into its directive (at most one) and its content texts. */
function readDirectives(parts: readonly Part[]): DirectiveParse {
  const contentTexts: string[] = [];
  let directive: Directive | undefined;
  for (const part of parts) {
    if (part.type !== 'text') continue;
    if (!isDirectiveText(part.text)) {
      contentTexts.push(part.text);
      continue;
    }
    if (directive !== undefined)
      return { ok: false, message: 'a message may carry at most one directive part' };
    const body = part.text.replace(DIRECTIVE_START, '').trim();
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch {
      return { ok: false, message: `the text after ${DIRECTIVE_PREFIX} is not valid JSON` };
    }
    const parsed = parseDirectiveObject(raw);
    if (typeof parsed === 'string') return { ok: false, message: parsed };
    directive = parsed;
  }
  return { ok: true, directive: directive ?? { ...NO_DIRECTIVE }, contentTexts };
}

/** Builds the directive part a client sends (used by tests and documentation examples). */
export function directivePart(fields: Partial<Directive>): Part {
  return { type: 'text', text: `${DIRECTIVE_PREFIX} ${JSON.stringify(fields)}` };
}

/** The content of a user message as the agent sees it: its non-directive text parts joined by "\n". */
export function contentText(parts: readonly Part[]): string {
  return parts
    .filter(
      (part): part is Extract<Part, { type: 'text' }> => part.type === 'text' && !isDirectiveText(part.text),
    )
    .map((part) => part.text)
    .join('\n');
}
