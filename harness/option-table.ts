// The options of `a2a-conformance run`, once: the rows live by group in harness/option-rows-*.ts, each
// saying its flag, variable, config key, help and value kind (harness/option-spec.ts). Everything else
// about them is made from this table: the commander options and their help (harness/cli/program.ts),
// the A2A_* variables and config-file keys (harness/option-layers.ts), the parsing and validation of
// every layer's value and the run's resolved options (harness/options.ts), the checks' `field` settings,
// the reproduce lines (harness/reproduce.ts), the fleet file's run options
// (schemas/fleet-file.schema.json), the option reference (docs/options.md) and the GitHub Action's
// inputs (action.yml). To add an option: add a row to its group (its `value` kind, a `default`, and
// `field`, `reproduce` as it needs), read it where it is used (`opts.<name>`, or `field.<name>` in a
// check), then `npm run gen:options` (`npm run gen:options:check`, in CI, fails when a generated place
// drifted).
import { TARGET, NETWORK, WEBHOOKS } from './option-rows-target.ts';
import { PACING, PROFILES, SHAPE } from './option-rows-run.ts';
import { REPORTS } from './option-rows-reports.ts';
import type { OptionGroup, OptionSpec } from './option-spec.ts';
import type { OptionValue } from './option-values.ts';

export { flagOf } from './option-values.ts';
export { helpOf, nameOf, type OptionSpec, type ValueSchema } from './option-spec.ts';
export { PROFILES };

/** The groups, in the order of --help and the option reference. */
export const OPTION_GROUPS: readonly OptionGroup[] = [TARGET, NETWORK, WEBHOOKS, SHAPE, PACING, REPORTS];

export const RUN_OPTIONS = [
  ...TARGET.rows,
  ...NETWORK.rows,
  ...WEBHOOKS.rows,
  ...SHAPE.rows,
  ...PACING.rows,
  ...REPORTS.rows,
] as const;

/** The table as plain rows (for iteration; RUN_OPTIONS keeps the literal keys for OptionKey). */
export const OPTIONS: readonly OptionSpec[] = RUN_OPTIONS;

export type OptionKey = (typeof RUN_OPTIONS)[number]['key'];

type Row = (typeof RUN_OPTIONS)[number];
type NameOf<R> = R extends { as: infer N extends string } ? N : R extends { key: infer K } ? K : never;
type ParsedOf<R> = R extends { value: OptionValue<infer T> } ? T : never;
/** Rows resolved alone (no `composed`). */
type AloneRow = Exclude<Row, { composed: string }>;
type RequiredRow = Exclude<AloneRow, { optional: true }>;
type ValueOf<R> = R extends { default: unknown }
  ? ParsedOf<R>
  : R extends { value: { absent: unknown } }
    ? ParsedOf<R>
    : ParsedOf<R> | null;

/** The rows' one-value defaults, by key, in the CLI's spelling. */
export type DefaultValues = {
  [R in Row as R extends { default: unknown } ? R['key'] : never]: R extends { default: number }
    ? number
    : string;
};

/** Every option as its kind parses it, by key: what the layers gave (absent: not given). */
export type GivenValues = { [R in Row as R['key']]?: ParsedOf<R> };

/**
 * The options the table resolves alone (rows without `composed`), by their resolved names: the
 * value given, else the default, else the kind's `absent`, else null (`optional`: no property).
 */
export type TableValues = { [R in RequiredRow as NameOf<R>]: ValueOf<R> } & {
  [R in Extract<AloneRow, { optional: true }> as NameOf<R>]?: ParsedOf<R>;
};
/** Those handed to every check (`field: true`). */
export type FieldValues = { [R in Extract<RequiredRow, { field: true }> as NameOf<R>]: ValueOf<R> };

/** The row of a key. */
export function rowOf(key: OptionKey): OptionSpec {
  const row = OPTIONS.find((o) => o.key === key);
  if (row === undefined) throw new Error(`option table: no row ${key}`);
  return row;
}

/**
 * Options of the `run` command line alone (no variable, no config key, no Action input): where the
 * other options are, and how much the console prints. program.ts adds them, docs/options.md lists them.
 */
export interface CommandLineOption {
  flag: string;
  arg?: string;
  help: string;
  /** The option it cannot be given with. */
  conflicts?: string;
}

export const COMMAND_LINE_OPTIONS: readonly CommandLineOption[] = [
  { flag: '--config', arg: '<file>', help: 'JSON file with any of the options above (camelCase keys)' },
  { flag: '--quiet', help: 'print only the findings, the verdict and the exit line', conflicts: 'verbose' },
  { flag: '--verbose', help: 'print every check as it ends, and every finding in full' },
];
