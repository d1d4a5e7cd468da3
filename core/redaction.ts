// The last redaction pass over a finished RunResult, before any reporter or file sees it (spec 5: the
// user's API keys and bearer tokens never appear in a report or a log; values the harness made up,
// such as the webhook secrets its checks configure, are no secrets and are left alone).
import { redact, redactText } from './evidence.ts';

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
