// What a row of the option table (harness/option-table.ts) says of one run option: its flag, variable
// and config key, its help, its value's kind (harness/option-values.ts) and where its resolved value
// goes. The rows themselves live by group in harness/option-rows-*.ts.
import type { OptionValue } from './option-values.ts';

/** A JSON Schema fragment for the option's value in a config or fleet file. */
export type ValueSchema = Record<string, unknown>;

export interface OptionSpec {
  /** The config-file key (camelCase); the flag is its kebab-case form. */
  key: string;
  /** The value's name in usage (`<n>`); absent for a switch. */
  arg?: string;
  env: string;
  /** What it does, for --help and the reference: no default, no variable (they are added). */
  help: string;
  /**
   * The default when it is one value, in the CLI's spelling (parsed by `value` like any given value);
   * defaultText, when given, says it in the help.
   */
  default?: string | number;
  /** The default when it depends on other options, in words. */
  defaultText?: string;
  choices?: readonly string[];
  /** Given several times, or comma-separated in the environment. */
  repeatable?: boolean;
  /** In the environment and the Action, one value a line instead of comma-separated (values hold commas). */
  lines?: boolean;
  /** The value in a config or fleet file. */
  schema: ValueSchema;
  /** Set by the fleet for each agent: not allowed in the fleet file's run options. */
  perAgent?: boolean;
  /** A credential or other secret: masked in the Action's log. */
  secret?: boolean;
  /** An input of the GitHub Action, named as the flag without its dashes. */
  action?: { description: string; default?: string };
  /** More for the option reference (docs/options.md) than --help says. */
  more?: string;
  /** How every layer's value is read and validated, and spelled back (harness/option-values.ts). */
  value: OptionValue<unknown>;
  /**
   * Resolved by harness/options.ts, for the reason given here (a default that depends on other
   * options, the credentials' precedence, the network settings). Without it the row resolves alone
   * (tableValues()): the value given, else its `default`, else its kind's `absent`, else null (or
   * nothing, when `optional`), under its resolved name in the run's options.
   */
  composed?: string;
  /** Resolved alone and not given: no property at all rather than null. */
  optional?: true;
  /** The resolved option's name when it is not the key (`maxWait` resolves to `maxWaitMs`). */
  as?: string;
  /** Handed to every check as the run's `field` settings (harness/provided.ts, FieldSettings). */
  field?: true;
  /** Changes what a check does: a reproduce line repeats it when it is not the default (harness/reproduce.ts). */
  reproduce?: true;
}

/** A group of rows: a concept of the run, a heading of the option reference. */
export interface OptionGroup {
  title: string;
  rows: readonly OptionSpec[];
}

/** The resolved name of a row: `as`, else its key. */
export function nameOf(row: OptionSpec): string {
  return row.as ?? row.key;
}

/** What follows the help text: its variable and its default. */
export function helpOf(o: OptionSpec): string {
  const def = o.defaultText ?? (o.default !== undefined ? String(o.default) : undefined);
  const repeat =
    o.repeatable !== true
      ? ''
      : `; repeatable, ${o.lines === true ? 'one a line' : 'comma-separated'} in the variable`;
  return `${o.help} (env ${o.env}${def === undefined ? '' : `; default ${def}`}${repeat})`;
}

/** A config or fleet file's count of at least one. */
export const POSITIVE: ValueSchema = Object.freeze({ type: 'integer', minimum: 1 });
/** A config or fleet file's non-empty string. */
export const TEXT: ValueSchema = Object.freeze({ type: 'string', minLength: 1 });
