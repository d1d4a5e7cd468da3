// The scenarios of `a2a-conformance client` (a public contract, docs/clients.md, C-76):
// what the user's driver does in each, and which requirements each one grades.

export const SCENARIOS = ['send', 'stream', 'multi-turn', 'file', 'cancel', 'retry', 'error'] as const;

export type Scenario = (typeof SCENARIOS)[number];

export function isScenario(name: string): name is Scenario {
  return (SCENARIOS as readonly string[]).includes(name);
}

/** What the driver must do, as docs/clients.md and `--help` state it. */
export const SCENARIO_TASKS: Readonly<Record<Scenario, string>> = Object.freeze({
  send: 'message/send of the text "hello"; print the reply text',
  stream: 'message/stream of "hello"; print the final reply text',
  'multi-turn': 'send "first", then "second" in the same conversation; print both replies',
  file: 'send the text "file" and a file part with the bytes of the file named by A2A_FILE',
  cancel:
    'message/stream of "hold", then tasks/cancel of that task once it is working; print the state the cancel result reports',
  retry: 'message/send of "hello" (the first attempt is answered HTTP 503); print the reply text',
  error: 'message/send of "hello" (answered with a JSON-RPC error); print the error code and exit 0',
});

/** Requirements graded on every request of every scenario. */
export const EVERY_REQUEST = [
  '2.1/client-jsonrpc-2-0',
  '2.1/client-unique-ids',
  '4/client-content-type-json',
  '4/client-sends-credential',
] as const;

/** Requirements graded on every message the client sends (message/send, message/stream). */
export const EVERY_MESSAGE = ['2.3/client-role-user', '2.3/client-message-id-uuid-v4'] as const;

/** Requirements graded by one scenario each (the outcome the scenario exists for). */
export const SCENARIO_REQUIREMENTS: Readonly<Record<Scenario, readonly string[]>> = Object.freeze({
  send: ['4.1/client-reads-reply-text'],
  stream: [
    '4/client-accept-event-stream',
    '4.2/client-reads-final-event',
    '4.2/client-ignores-ping',
    '4.2/client-reassembles-split-events',
    '4.2/client-closes-on-final',
  ],
  'multi-turn': ['4.9/client-carries-context-id'],
  file: ['2.5/client-file-bytes-base64', '2.5/client-file-name-mime', '4.9/client-sends-file-part'],
  cancel: ['4/client-accept-event-stream', '4.2/client-closes-on-final', '4.4/client-cancels-by-task-id'],
  retry: ['7/client-retries-transient', '7/client-retries-bounded'],
  error: ['7/client-no-retry-non-transient'],
});
