// The command line of the project's own scripts (npm run mutants, field, fuzz, soak, hostile, bench and
// npx tsx bench/fleet.ts): commander, as the product CLI (harness/cli/program.ts), so each script has
// --help and refuses an unknown flag or a bad value with a message naming it and exit 2.
import { Command, InvalidArgumentError } from 'commander';

/**
 * A script's command. `usage` is how it is started (`npm run fuzz --`); a usage error exits 2 and
 * --help exits 0, like the CLI's.
 */
export function scriptCommand(usage: string, description: string): Command {
  return new Command(usage)
    .description(description)
    .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2));
}

/** An integer >= 1 (a count: requests, clients, rounds, jobs). */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError('must be an integer >= 1');
  }
  return n;
}

/** Any integer (a seed). */
export function integer(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n)) throw new InvalidArgumentError('must be an integer');
  return n;
}

/** A number > 0 (seconds of a measurement). */
export function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new InvalidArgumentError('must be a number > 0');
  }
  return n;
}

/** A comma-separated list, empty items dropped (`--only send,streams`). */
export function list(value: string): string[] {
  return value.split(',').filter((item) => item.trim() !== '');
}

/** A comma-separated list of names out of `known` (`--only send,streams`); an unknown name is refused. */
export function listOf(known: readonly string[]): (value: string) => string[] {
  return (value) => {
    const items = list(value);
    const unknown = items.filter((item) => !known.includes(item));
    if (unknown.length > 0) {
      throw new InvalidArgumentError(`unknown: ${unknown.join(', ')} (known: ${known.join(', ')})`);
    }
    return items;
  };
}
