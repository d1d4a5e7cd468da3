// The tool's identity in every report and event: its name, its version (package.json) and the
// version of the ledger it grades against (requirements/ledger-version.ts).
import { readFileSync } from 'node:fs';
import { LEDGER_VERSION } from '../../requirements/index.ts';

export const TOOL = Object.freeze({
  name: 'a2a-conformance',
  version: (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version,
  /** The ledger graded against (requirements/ledger-version.ts): compare reports only when it matches. */
  ledger: LEDGER_VERSION,
});
