// Run results of targets that fail for one shared reason: an agent speaking the official A2A v0.3
// JSON-RPC (answers shaped as @a2a-js/sdk 0.3 gives them), an agent of this spec that answers a
// rate limit to everything, and an agent of this spec with one odd error code.
import type { Exchange } from '../../core/evidence.ts';
import type { DialectProbeAnswer } from '../../core/analysis.ts';
import type { CheckResult, RequirementResult } from '../../core/types.ts';
import { check, exchange, requirement } from './fixtures.ts';

function rpc(id: string, method: string, params: unknown, response: unknown, status = 200): Exchange {
  return exchange(id, { jsonrpc: '2.0', id, method, params }, response, status);
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: 'x', error: { code, message } });

/** A task as A2A v0.3 returns it: `kind` discriminators, no `final`. */
export function v03Task(id: string): Record<string, unknown> {
  return {
    kind: 'task',
    id,
    contextId: 'c-1',
    status: {
      state: 'completed',
      message: { kind: 'message', role: 'agent', messageId: 'm-1', parts: [{ kind: 'text', text: 'echo' }] },
    },
  };
}

const send = (id: string, taskId: string): Exchange =>
  rpc(id, 'message/send', { message: { role: 'user' } }, { jsonrpc: '2.0', id, result: v03Task(taskId) });

function failed(id: string, extra: Partial<CheckResult>, exchanges: Exchange[]): RequirementResult {
  const c = check(id, 'fail', { ...extra, evidence: { exchanges, streams: [], deliveries: [] } });
  return requirement(id, 'fail', [c]);
}

export const V03_PROBE: DialectProbeAnswer[] = [
  {
    dialect: 'a2a-v0.3',
    method: 'agent/getAuthenticatedExtendedCard',
    served: true,
    status: 200,
    code: -32004,
    message: 'Unsupported operation: Agent does not support authenticated extended card.',
  },
  { dialect: 'a2a-v1.0', method: 'GetExtendedAgentCard', served: false, status: 200, code: -32601 },
];

/** Findings of a run against an A2A v0.3 agent, each with the difference that explains it. */
export function v03Requirements(): {
  requirements: RequirementResult[];
  explainedBy: Record<string, string>;
} {
  const cardMissing = (id: string, n: number) =>
    failed(id, { expected: 'object', actual: 'undefined' }, [
      rpc(`card-${n}`, 'agent/authenticatedExtendedCard', {}, rpcError(-32601, 'Method not found')),
    ]);
  const requirements = [
    requirement('2.1/jsonrpc-required', 'pass', [check('2.1/jsonrpc-required', 'pass')]),
    cardMissing('2.14/card-agent-id', 1),
    cardMissing('2.14/card-agent-name', 2),
    cardMissing('8/limits-reported', 3),
    failed('4.3/get-current-state', { expected: 'completed', actual: undefined }, [
      send('s-1', 't-1'),
      rpc('g-1', 'tasks/get', { taskId: 't-1' }, rpcError(-32001, 'Task not found: undefined')),
    ]),
    failed('4.3/get-unknown-task-32000', { expected: -32000, actual: -32001 }, [
      rpc('g-2', 'tasks/get', { taskId: 'no-such-task' }, rpcError(-32001, 'Task not found: undefined')),
    ]),
    failed(
      '2.4/reply-part-shape',
      {
        expected: 'string',
        actual: 'undefined',
        assertions: [
          { label: 'message 1 part 0: type of type', expected: 'string', actual: 'undefined', pass: false },
        ],
      },
      [send('s-2', 't-2')],
    ),
    failed('2.12/set-configured', { expected: 'a result object', actual: rpcError(-32003, 'x') }, [
      send('s-3', 't-3'),
      rpc(
        'p-1',
        'tasks/pushNotificationConfig/set',
        { taskId: 't-3', config: { url: 'http://127.0.0.1:9/h' } },
        rpcError(-32003, 'Push Notification is not supported'),
      ),
    ]),
    // The agent serves invalid input: a finding no dialect difference explains.
    failed('2.3/role-required', { expected: -32602, actual: undefined }, [send('s-4', 't-4')]),
  ];
  return {
    requirements,
    explainedBy: {
      '2.14/card-agent-id': 'extended-card-method',
      '2.14/card-agent-name': 'extended-card-method',
      '8/limits-reported': 'extended-card-method',
      '4.3/get-current-state': 'task-id-param',
      '4.3/get-unknown-task-32000': 'task-not-found-code',
      '2.4/reply-part-shape': 'kind-discriminator',
      '2.12/set-configured': 'push-not-supported-code',
    },
  };
}

/** Every check of an agent of this spec answered HTTP 429 / -32012 (a limit the harness exceeded). */
export function rateLimitedRequirements(): RequirementResult[] {
  const ids = [
    '2.1/method-required',
    '2.2/result-on-success',
    '4.1/send-result-final-true',
    '7/method-not-found-code',
  ];
  return ids.map((id, i) =>
    failed(id, { expected: 'a result', actual: undefined }, [
      rpc(`r-${i}`, 'message/send', {}, rpcError(-32012, 'Rate limit exceeded'), 429),
    ]),
  );
}
