#!/usr/bin/env node
// Entry point of the a2a-conformance CLI. The sources are TypeScript; tsx's loader runs them
// directly, so the CLI works from a clean clone with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../harness/cli/main.ts');
