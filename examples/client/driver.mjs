#!/usr/bin/env node
// The example driver of `a2a-conformance client` (C-76): runs the scenario named by A2A_SCENARIO with
// the example client against A2A_TARGET, prints what the scenario asks for, and exits 0.
//
//   npx a2a-conformance client -- node examples/client/driver.mjs
import { createClient } from './a2a-client.mjs';
import { SCENARIOS } from './scenarios.mjs';

const env = process.env;
const scenario = SCENARIOS[env.A2A_SCENARIO];
if (scenario === undefined) {
  process.stderr.write(`unknown scenario '${env.A2A_SCENARIO}'\n`);
  process.exit(2);
}
const client = createClient({ target: env.A2A_TARGET, agentId: env.A2A_AGENT_ID, apiKey: env.A2A_API_KEY });
const lines = await scenario(client, env);
process.stdout.write(`${lines.join('\n')}\n`);
