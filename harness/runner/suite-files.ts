// Picks the suite files a run with --only needs, so that a run of a few sections loads a few files
// instead of all of them (each costs seconds to load). A file is kept when it, or a local module it
// imports, spells a selected requirement id, or when it spells no id at all (it may build them).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The suite file that runs after every other one: tripping the agent's rate limit (C-04) blocks it for
 * up to a minute, so a check that came after it would wait that long (the sequencer of
 * suites/vitest.config.ts puts it last in one worker; the runner runs it on its own after the others
 * when files share several workers).
 */
export const RUNS_LAST = /(?:^|[\\/])suites[\\/]08-limits[\\/]rate-limit\.test\.ts$/;

/**
 * The suite file that runs before every other one: its check needs an agent on which no agent-level
 * webhook configuration was ever set (C-17; no set can undo one), and later files set one. Path order
 * puts it first in one worker; in several, the runner gives it a vitest run of its own first.
 */
export const RUNS_FIRST = /(?:^|[\\/])suites[\\/]02-11-webhook-config[\\/]no-config\.test\.ts$/;

/**
 * Suite files whose every check runs alone when files run in several workers: the rate-limit burst
 * (C-04), whose refusals another file's requests would meet (it also runs after every other file). A
 * check that fills or overflows the agent's task slots (C-21) runs alone wherever it is
 * (verifies(..., { overflowsTasks: true })); its file's other checks do not. Every other check keeps
 * within the card's limits.concurrentTasks through the governor, so another file's turns can delay
 * it but never queue its task at the agent.
 */
export const EXCLUSIVE_SUITE_FILES = Object.freeze([RUNS_LAST.source]);

/**
 * Whether a suite file (absolute path) has checks that need the agent idle: the whole file runs alone,
 * or a check of it fills the agent's task slots. When files share several workers these files start
 * first, so that their exclusive checks wait for short checks of other files, not for a long property.
 */
export function needsIdleAgent(file: string): boolean {
  const path = file.split(sep).join('/');
  if (EXCLUSIVE_SUITE_FILES.some((p) => new RegExp(p).test(path))) return true;
  try {
    return /overflowsTasks:\s*true/.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Suite files whose span is one long chain of requests that needs almost no agent turn: the three
 * malformed-input properties of 2.1-2.6 (about 1,200 requests, one round trip after another). When
 * files share several workers they start first: behind a slow link the chain is the run's longest, and
 * a check that needs the agent idle does not wait for it (a property lets one in between its cases,
 * FileHold.yield).
 */
const STARTS_FIRST = [/[\\/]suites[\\/]02-01-envelopes[\\/]malformed-property\.test\.ts$/];

/**
 * Suite files with a long span: many agent turns one after another (the section 3 model, the
 * valid-message properties of 4.1, the multi-turn conversations of 4.9) or a spec-bound wait (the 5 s
 * receiver timeout of 6.5). When files share several workers they start right after the files that
 * need the agent idle, so that the other files overlap them instead of the run ending on them (npm run
 * field -- --breakdown measures each file's span). The receiver timeout's check does not let a check
 * that needs the agent idle in during its wait, so its file comes after the others that start early.
 */
const STARTS_EARLY = [
  /[\\/]suites[\\/]03-states[\\/]state-machine\.test\.ts$/,
  /[\\/]suites[\\/]04-01-message-send[\\/]send-result\.test\.ts$/,
  /[\\/]suites[\\/]04-09-multi-turn-files[\\/]context\.test\.ts$/,
  /[\\/]suites[\\/]06-01-webhooks[\\/]delivery\.test\.ts$/,
];

/**
 * When files share several workers, the rank a file starts at (lower first; equal ranks in path
 * order): 0 for the long request chains (STARTS_FIRST), 1 for the files with checks that need the
 * agent idle, 2 for the long ones (STARTS_EARLY), 3 for the rest.
 */
export function startRank(file: string): number {
  if (STARTS_FIRST.some((p) => p.test(file))) return 0;
  if (needsIdleAgent(file)) return 1;
  return STARTS_EARLY.some((p) => p.test(file)) ? 2 : 3;
}

const ID_LITERAL = /['"`](\d+(?:\.\d+)?\/[a-z0-9.-]+)['"`]/g;
const LOCAL_IMPORT = /from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'support' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every id literal of a file and of the suite modules it imports (support/ and the harness excluded). */
function idsOf(file: string, suitesDir: string, seen = new Set<string>()): Set<string> {
  const ids = new Set<string>();
  if (seen.has(file)) return ids;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return ids;
  }
  for (const m of text.matchAll(ID_LITERAL)) ids.add(m[1]!);
  for (const m of text.matchAll(LOCAL_IMPORT)) {
    const target = resolve(dirname(file), m[1]!);
    const inSuites = relative(suitesDir, target);
    if (inSuites.startsWith('..') || inSuites.split(sep)[0] === 'support') continue;
    for (const id of idsOf(target, suitesDir, seen)) ids.add(id);
  }
  return ids;
}

/** Every suite file, relative to `root` and `/`-separated, in path order. */
export function allSuiteFiles(root: string, suitesDir: string): string[] {
  return testFiles(suitesDir)
    .sort()
    .map((file) => relative(root, file).split(sep).join('/'));
}

/**
 * The suite files (relative to `root`, `/`-separated) that may register one of `selected`; undefined
 * when every file is needed (no narrowing possible or wanted).
 */
export function suiteFilesFor(
  root: string,
  suitesDir: string,
  selected: readonly string[],
): string[] | undefined {
  const wanted = new Set(selected);
  let files: string[];
  try {
    files = testFiles(suitesDir).sort();
  } catch {
    return undefined;
  }
  const kept = files.filter((file) => {
    const ids = idsOf(file, suitesDir);
    return ids.size === 0 || [...ids].some((id) => wanted.has(id));
  });
  if (kept.length === files.length) return undefined;
  return kept.map((file) => relative(root, file).split(sep).join('/'));
}
