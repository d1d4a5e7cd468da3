// Small field checkers for configuration objects: each records a readable error
// (`agents[0].limits.requestsPerMinute: must be an integer >= 1 (got "abc")`) instead of throwing,
// so one run reports every mistake of a config file at once, in one ConfigError (schemas/config-error.ts).
import { ConfigError } from '../../schemas/config-error.ts';
import { isObject } from '../../schemas/json.ts';

/** The reference server's ConfigError: every problem of its configuration under one heading. */
export function serverConfigError(problems: readonly string[]): ConfigError {
  return new ConfigError('invalid reference server configuration', problems);
}

export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Collects problems under a path prefix. */
export class Checker {
  constructor(readonly problems: string[] = []) {}

  /** Throws a ConfigError listing every problem collected, if there is one. */
  throwIfAny(): void {
    if (this.problems.length > 0) throw serverConfigError(this.problems);
  }

  fail(path: string, expectation: string, value: unknown): void {
    this.problems.push(`${path}: ${expectation} (got ${describe(value)})`);
  }

  object(path: string, value: unknown, allowedKeys: readonly string[]): value is Record<string, unknown> {
    if (!isObject(value)) {
      this.fail(path, 'must be an object', value);
      return false;
    }
    for (const key of Object.keys(value)) {
      if (!allowedKeys.includes(key)) {
        this.problems.push(`${path}.${key}: unknown field (allowed: ${allowedKeys.join(', ')})`);
      }
    }
    return true;
  }

  string(path: string, value: unknown, pattern?: RegExp): value is string {
    if (typeof value !== 'string' || value.length === 0) {
      this.fail(path, 'must be a non-empty string', value);
      return false;
    }
    if (pattern !== undefined && !pattern.test(value)) {
      this.fail(path, `must match ${String(pattern)}`, value);
      return false;
    }
    return true;
  }

  boolean(path: string, value: unknown): value is boolean {
    if (typeof value !== 'boolean') {
      this.fail(path, 'must be a boolean', value);
      return false;
    }
    return true;
  }

  integer(path: string, value: unknown, min: number, max: number): value is number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.fail(path, `must be an integer from ${min} to ${max}`, value);
      return false;
    }
    return true;
  }

  stringArray(path: string, value: unknown, allowEmpty: boolean): value is string[] {
    if (!Array.isArray(value) || (!allowEmpty && value.length === 0)) {
      this.fail(path, allowEmpty ? 'must be an array of strings' : 'must be a non-empty array', value);
      return false;
    }
    let ok = true;
    value.forEach((item, index) => {
      ok = this.string(`${path}[${index}]`, item) && ok;
    });
    return ok;
  }

  oneOf<T extends string>(path: string, value: unknown, allowed: readonly T[]): value is T {
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.fail(path, `must be one of ${allowed.join(', ')}`, value);
      return false;
    }
    return true;
  }
}
