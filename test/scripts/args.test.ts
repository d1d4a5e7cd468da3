// The scripts' command line (scripts/args.ts): commander with the value parsers every script shares;
// a bad value is refused naming the flag, --help and usage errors end with exit 0 and 2. The scripts
// themselves are run as processes: `--help` lists their flags, a bad value exits 2 before any work.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { integer, list, listOf, positiveInt, positiveNumber } from '../../scripts/args.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function run(script: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('value parsers', () => {
  it.each([
    [positiveInt, '3', 3],
    [integer, '-7', -7],
    [positiveNumber, '0.5', 0.5],
    [list, 'send,,streams', ['send', 'streams']],
    [listOf(['send', 'streams']), 'streams', ['streams']],
  ])('%o reads %j as %j', (parse, text, value) => {
    expect((parse as (v: string) => unknown)(text)).toEqual(value);
  });

  it.each([
    [positiveInt, '0'],
    [positiveInt, '2.5'],
    [positiveInt, ''],
    [integer, 'x'],
    [positiveNumber, '-1'],
    [positiveNumber, ' '],
  ])('%o refuses %j', (parse, text) => {
    expect(() => (parse as (v: string) => unknown)(text)).toThrow(InvalidArgumentError);
  });

  it('names the known values when refusing an unknown one', () => {
    expect(() => listOf(['curve', 'shards'])('curve,x')).toThrow('unknown: x (known: curve, shards)');
  });
});

describe('the scripts', () => {
  it.each([
    ['mutants/main.ts', '--concurrency <n>'],
    ['reliability/fuzz-main.ts', '--requests <n>'],
    ['reliability/soak-main.ts', '--no-faults'],
    ['reliability/hostile/main.ts', '--case <name>'],
    ['bench/run.ts', '--only <scenarios>'],
    ['reference-server/main.ts', '--api-key <key>'],
  ])('%s --help lists its flags and exits 0', (script, flag) => {
    const r = run(script, ['--help']);
    expect(r.status).toBe(0);
    expect(r.out).toContain(flag);
  });

  it.each([
    ['mutants/main.ts', ['--concurrency', '0'], "option '--concurrency <n>' argument '0' is invalid"],
    [
      'reliability/fuzz-main.ts',
      ['--requests', 'many'],
      "option '--requests <n>' argument 'many' is invalid",
    ],
    ['bench/run.ts', ['--only', 'nope'], 'unknown: nope (known: send, streams'],
    ['reference-server/main.ts', ['--bogus'], "unknown option '--bogus'"],
  ])('%s %j exits 2 naming the mistake', (script, args, message) => {
    const r = run(script, args);
    expect(r.status).toBe(2);
    expect(r.out).toContain(message);
  });
});
