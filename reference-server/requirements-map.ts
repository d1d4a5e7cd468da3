// Where the reference server implements each requirement of the service (all sections of
// spec/a2a-jsonrpc-service.md): data only, read by `a2a-conformance explain`. A selector is a
// section (`4.4`) or an id glob (`4.4/cancel-*`), as `--only` reads them; a requirement gets the
// files of every entry that selects it. test/reference-server/requirements-map.test.ts keeps it
// honest: every file exists, every entry selects a requirement, every service section is mapped.

export interface ImplementedBy {
  /** A section or an id glob, as `--only` reads it. */
  select: string;
  /** Paths from the project root, most telling first. */
  files: readonly string[];
}

const RS = 'reference-server';

export const REQUIREMENTS_MAP: readonly ImplementedBy[] = Object.freeze([
  { select: '1', files: [`${RS}/http/server.ts`, `${RS}/rpc/dispatch.ts`, `${RS}/methods/index.ts`] },
  { select: '2', files: [`${RS}/methods/context.ts`, `${RS}/rpc/params.ts`] },
  { select: '2.1', files: [`${RS}/rpc/envelope.ts`, `${RS}/rpc/dispatch.ts`, `${RS}/rpc/params.ts`] },
  { select: '2.2', files: [`${RS}/rpc/errors.ts`, `${RS}/rpc/envelope.ts`, `${RS}/http/respond.ts`] },
  { select: '2.3', files: [`${RS}/rpc/message-params.ts`] },
  { select: '2.4', files: [`${RS}/rpc/message-params.ts`] },
  { select: '2.5', files: [`${RS}/rpc/message-params.ts`] },
  { select: '2.3/reply-*', files: [`${RS}/agent/reply.ts`, `${RS}/agent/reference-agent.ts`] },
  { select: '2.4/reply-*', files: [`${RS}/agent/reply.ts`, `${RS}/agent/reference-agent.ts`] },
  { select: '2.6', files: [`${RS}/rpc/message-params.ts`, `${RS}/tasks/task-store.ts`] },
  {
    select: '2.7',
    files: [`${RS}/methods/context.ts`, `${RS}/tasks/transitions.ts`, `${RS}/tasks/task-store.ts`],
  },
  {
    select: '2.8',
    files: [`${RS}/tasks/transitions.ts`, `${RS}/tasks/task-engine.ts`, `${RS}/agent/reference-agent.ts`],
  },
  { select: '2.9', files: [`${RS}/methods/tasks-cancel.ts`, `${RS}/tasks/task-engine.ts`] },
  { select: '2.10', files: [`${RS}/methods/tasks-resubscribe.ts`, `${RS}/sse/task-stream.ts`] },
  {
    select: '2.11',
    files: [
      `${RS}/webhooks/config-validation.ts`,
      `${RS}/webhooks/config-store.ts`,
      `${RS}/webhooks/index.ts`,
    ],
  },
  { select: '2.11/*-default*', files: [`${RS}/webhooks/delivery.ts`] },
  { select: '2.11/*-scoped-*', files: [`${RS}/webhooks/delivery.ts`] },
  {
    select: '2.12',
    files: [`${RS}/methods/push-config.ts`, `${RS}/webhooks/index.ts`, `${RS}/webhooks/config-store.ts`],
  },
  {
    select: '2.13',
    files: [`${RS}/methods/push-config.ts`, `${RS}/webhooks/index.ts`, `${RS}/webhooks/config-store.ts`],
  },
  { select: '2.13/get-*last-used*', files: [`${RS}/webhooks/delivery.ts`] },
  {
    select: '2.14',
    files: [`${RS}/agents/card.ts`, `${RS}/agents/config.ts`, `${RS}/methods/extended-card.ts`],
  },
  { select: '2.14/metrics-*', files: [`${RS}/agents/metrics.ts`] },
  { select: '2.14/*-methods*', files: [`${RS}/rpc/dispatch.ts`] },
  { select: '3', files: [`${RS}/tasks/transitions.ts`, `${RS}/tasks/task-engine.ts`] },
  { select: '3/*submitted*', files: [`${RS}/tasks/queue.ts`] },
  { select: '3/cancel-*', files: [`${RS}/methods/tasks-cancel.ts`] },
  { select: '3/*-webhook*', files: [`${RS}/webhooks/index.ts`] },
  { select: '3/task-submitted-announced', files: [`${RS}/webhooks/index.ts`] },
  { select: '4', files: [`${RS}/http/server.ts`, `${RS}/rpc/dispatch.ts`, `${RS}/http/body.ts`] },
  { select: '4.1', files: [`${RS}/methods/message-send.ts`, `${RS}/tasks/task-engine.ts`] },
  {
    select: '4.2',
    files: [`${RS}/methods/message-stream.ts`, `${RS}/sse/sse-writer.ts`, `${RS}/sse/task-stream.ts`],
  },
  {
    select: '4.3',
    files: [`${RS}/methods/tasks-get.ts`, `${RS}/methods/context.ts`, `${RS}/tasks/task-store.ts`],
  },
  { select: '4.4', files: [`${RS}/methods/tasks-cancel.ts`, `${RS}/tasks/task-engine.ts`] },
  { select: '4.5', files: [`${RS}/methods/tasks-resubscribe.ts`, `${RS}/sse/task-stream.ts`] },
  {
    select: '4.6',
    files: [`${RS}/methods/push-config.ts`, `${RS}/webhooks/index.ts`, `${RS}/webhooks/config-validation.ts`],
  },
  {
    select: '4.7',
    files: [`${RS}/methods/push-config.ts`, `${RS}/webhooks/index.ts`, `${RS}/webhooks/config-store.ts`],
  },
  { select: '4.8', files: [`${RS}/methods/extended-card.ts`, `${RS}/agents/card.ts`, `${RS}/rpc/params.ts`] },
  {
    select: '4.9',
    files: [`${RS}/rpc/message-params.ts`, `${RS}/tasks/task-store.ts`, `${RS}/agent/reference-agent.ts`],
  },
  { select: '5', files: [`${RS}/http/auth.ts`, `${RS}/http/server.ts`] },
  { select: '5/cors-*', files: [`${RS}/http/cors.ts`] },
  { select: '6', files: [`${RS}/webhooks/index.ts`, `${RS}/webhooks/config-store.ts`] },
  {
    select: '6.1',
    files: [`${RS}/webhooks/payload.ts`, `${RS}/webhooks/index.ts`, `${RS}/webhooks/delivery.ts`],
  },
  { select: '6.2', files: [`${RS}/webhooks/attempt.ts`, `${RS}/webhooks/delivery.ts`, `${RS}/version.ts`] },
  { select: '6.3', files: [`${RS}/webhooks/payload.ts`] },
  { select: '6.4', files: [`${RS}/webhooks/signer.ts`, `${RS}/webhooks/attempt.ts`] },
  { select: '6.5', files: [`${RS}/webhooks/delivery.ts`, `${RS}/webhooks/attempt.ts`] },
  {
    select: '6.5/delivery-id-across-replicas',
    files: [`${RS}/webhooks/delivery.ts`, `${RS}/store/redis-store.ts`, `${RS}/store/redis-scripts.ts`],
  },
  {
    select: '6.6',
    files: [`${RS}/methods/tasks-resubscribe.ts`, `${RS}/sse/sse-writer.ts`, `${RS}/sse/task-stream.ts`],
  },
  { select: '7', files: [`${RS}/rpc/errors.ts`, 'schemas/error-codes.ts', `${RS}/http/respond.ts`] },
  { select: '8', files: [`${RS}/agents/config.ts`] },
  { select: '8/*file*', files: [`${RS}/rpc/message-params.ts`] },
  { select: '8/max-message-length', files: [`${RS}/rpc/message-params.ts`] },
  { select: '8/limits-reported', files: [`${RS}/agents/card.ts`] },
  { select: '8/rate-limit-*', files: [`${RS}/http/rate-limit.ts`, `${RS}/http/server.ts`] },
  {
    select: '8/rate-limit-agent-wide',
    files: [`${RS}/store/redis-scripts.ts`, `${RS}/store/redis-store.ts`],
  },
  { select: '8/concurrent-*', files: [`${RS}/tasks/queue.ts`, `${RS}/tasks/task-engine.ts`] },
  {
    select: '8/reference-bounds',
    files: [
      `${RS}/http/body.ts`,
      `${RS}/http/limits.ts`,
      `${RS}/webhooks/config-store.ts`,
      `${RS}/agents/runtime.ts`,
    ],
  },
  { select: '9', files: [`${RS}/http/server.ts`, `${RS}/rpc/envelope.ts`, `${RS}/agents/card.ts`] },
]);
