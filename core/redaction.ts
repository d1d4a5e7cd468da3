// The last redaction pass over a finished RunResult, before any reporter or file sees it (spec 5: the
// user's API keys and bearer tokens never appear in a report or a log; values the harness made up,
// such as the webhook secrets its checks configure, are no secrets and are left alone).
import { redact, REDACTED, redactText } from './evidence.ts';

// Why a minimum: a secret of a few characters (a test key such as "k") also matches field names and
// verdicts, and replacing those would corrupt the result itself. Evidence is redacted of every secret,
// whatever its length, where it is recorded.
export const MIN_SECRET_LENGTH = 6;

export function searchableSecrets(secrets: readonly string[]): string[] {
  return secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
}

export function redactResult<T>(value: T, secrets: readonly string[]): T {
  return redact(value, searchableSecrets(secrets));
}

export function redactLine(text: string, secrets: readonly string[]): string {
  return redactText(text, searchableSecrets(secrets)).text;
}

// A header whose name says it carries a secret: its value is redacted like the credentials (spec 5),
// whether or not the user marked it secret (--secret-header).
const SECRET_HEADER_NAME = /key|token|secret|auth|session|cookie|password|credential|signature/i;

export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADER_NAME.test(name);
}

/** `Name: value` as a report or log shows it: the value of a secret header replaced whole. */
export function headerLine(name: string, value: string, secret: boolean): string {
  return `${name}: ${secret || isSecretHeaderName(name) ? REDACTED : value}`;
}
