// Deliberately broken clients: the example driver with one fault each (broken-driver.mjs), named
// for the client requirement it breaks like the mutants (`<requirement>--<fault>`), and the
// scenarios that show it.
import type { Scenario } from '../../harness/client/scenarios.ts';

export interface BrokenClient {
  breaks: string;
  fault: string;
  scenarios: Scenario[];
}

export const BROKEN_CLIENTS: readonly BrokenClient[] = [
  { breaks: '2.1/client-jsonrpc-2-0', fault: 'jsonrpc-1-0', scenarios: ['send'] },
  { breaks: '2.1/client-unique-ids', fault: 'reuses-one-id', scenarios: ['multi-turn'] },
  { breaks: '2.3/client-role-user', fault: 'role-agent', scenarios: ['send'] },
  { breaks: '2.3/client-message-id-uuid-v4', fault: 'message-id-counter', scenarios: ['send'] },
  { breaks: '2.5/client-file-bytes-base64', fault: 'data-url-bytes', scenarios: ['file'] },
  { breaks: '2.5/client-file-name-mime', fault: 'no-file-name', scenarios: ['file'] },
  { breaks: '4/client-content-type-json', fault: 'text-plain', scenarios: ['send'] },
  { breaks: '4/client-sends-credential', fault: 'no-credential', scenarios: ['send'] },
  { breaks: '4/client-accept-event-stream', fault: 'no-accept', scenarios: ['stream'] },
  { breaks: '4.1/client-reads-reply-text', fault: 'reply-from-result-message', scenarios: ['send'] },
  { breaks: '4.2/client-reads-final-event', fault: 'reply-from-first-event', scenarios: ['stream'] },
  { breaks: '4.2/client-ignores-ping', fault: 'chokes-on-ping', scenarios: ['stream'] },
  { breaks: '4.2/client-reassembles-split-events', fault: 'one-read-one-event', scenarios: ['stream'] },
  { breaks: '4.2/client-closes-on-final', fault: 'closes-late', scenarios: ['stream'] },
  { breaks: '4.4/client-cancels-by-task-id', fault: 'cancel-with-id-param', scenarios: ['cancel'] },
  { breaks: '4.9/client-carries-context-id', fault: 'drops-context-id', scenarios: ['multi-turn'] },
  { breaks: '4.9/client-sends-file-part', fault: 'file-without-text', scenarios: ['file'] },
  { breaks: '7/client-retries-transient', fault: 'never-retries', scenarios: ['retry'] },
  { breaks: '7/client-retries-bounded', fault: 'sends-twice', scenarios: ['retry'] },
  { breaks: '7/client-no-retry-non-transient', fault: 'retries-json-rpc-errors', scenarios: ['error'] },
];

/** Legal variants of the example driver: each must pass every requirement its scenarios grade. */
export const LEGAL_CLIENTS: ReadonlyArray<{ variant: string; scenarios: Scenario[] }> = [
  { variant: 'bearer-credential', scenarios: ['send', 'stream'] },
  { variant: 'fresh-id-per-attempt', scenarios: ['retry', 'multi-turn'] },
  { variant: 'charset-content-type', scenarios: ['send', 'file'] },
  { variant: 'accept-list', scenarios: ['stream', 'cancel'] },
];

export const clientName = (b: BrokenClient): string => `${b.breaks.replace(/[./]/g, '-')}--${b.fault}`;
