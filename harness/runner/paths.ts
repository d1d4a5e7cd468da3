// Where the runner finds the project, the suites and their vitest config, wherever it is started
// from (a clone, an installed package).
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SUITES_CONFIG = fileURLToPath(new URL('../../suites/vitest.config.ts', import.meta.url));
export const SUITES_DIR = fileURLToPath(new URL('../../suites/', import.meta.url));
