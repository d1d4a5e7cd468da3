// The package version, used in the webhook User-Agent (spec 6.2, C-20) and the default agent.version.
import { readFileSync } from 'node:fs';

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const PACKAGE_VERSION = readVersion();
export const WEBHOOK_USER_AGENT = `A2A-Reference-Webhook/${PACKAGE_VERSION}`;
