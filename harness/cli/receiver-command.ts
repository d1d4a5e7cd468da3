// `a2a-conformance receiver --url <receiver-url> [--secret s] [--header name:value]…`: certifies a
// webhook receiver (spec 6.4, 6.5) by posting deliveries to it; same reports and exit codes as `run`.
import type { Command } from 'commander';
import { parseHeaders } from '../io/target/network.ts';
import { ConfigError } from '../options.ts';
import { runReceiver } from '../runs.ts';
import { interruptible } from './interrupts.ts';
import { addGradingOptions, collect, consoleFor, gradingFlags, positiveInt } from './shared.ts';
import type { CliIo, SetCode } from './shared.ts';

export { parseHeaders };

export function parseHttpUrl(value: unknown, flag: string): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new ConfigError(`${flag} must be an http:// or https:// URL, got '${String(value)}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${flag} must be an http:// or https:// URL, got '${String(value)}'`);
  }
  return url.href;
}

export async function receiverCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const url = parseHttpUrl(flags.url, '--url');
  const headers = parseHeaders((flags.header as string[] | undefined) ?? []);
  // The environment keeps the secret out of the process list and the shell history.
  const secret = (flags.secret as string | undefined) ?? io.env.A2A_WEBHOOK_SECRET;
  if (secret === '') throw new ConfigError('--secret must not be empty');
  const timeoutMs = positiveInt(flags.timeoutMs, '--timeout-ms');
  const reporter = consoleFor(flags, io, [
    ...(secret === undefined ? [] : [secret]),
    ...Object.values(headers),
  ]);
  const result = await interruptible(io, (signal) =>
    runReceiver({
      signal,
      url,
      headers,
      ...(secret === undefined ? {} : { secret }),
      ...gradingFlags(flags),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      log: (line) => reporter.line(line),
    }),
  );
  reporter.summary(result);
  return result.exitCode;
}

export function addReceiverCommand(program: Command, io: CliIo, setCode: SetCode): void {
  const command = program
    .command('receiver')
    .description('certify a webhook receiver: the harness plays the service and posts deliveries to it')
    .requiredOption('--url <receiver-url>', 'the URL the receiver takes deliveries on')
    .option(
      '--secret <secret>',
      'the secret the receiver verifies X-Webhook-Signature with (spec 6.4; env A2A_WEBHOOK_SECRET)',
    )
    .option(
      '--header <name:value>',
      'a header sent with each delivery (the configuration headers, spec 2.11); repeatable',
      collect,
    )
    .option('--timeout-ms <n>', 'deadline of one delivery in ms (default 10000)');
  addGradingOptions(command, '6.4/*').action(async (flags: Record<string, unknown>) =>
    setCode(await receiverCommand(flags, io)),
  );
}
