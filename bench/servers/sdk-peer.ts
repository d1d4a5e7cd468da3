// The peer of the comparison: an @a2a-js/sdk 0.3.x server (DefaultRequestHandler, InMemoryTaskStore,
// express jsonRpcHandler) with an echo agent equivalent to the reference agent's default behaviour:
// the task goes submitted -> working -> completed with the user's text echoed, and an x-api-key check.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AgentCard, Message, Task, TaskStatusUpdateEvent, TextPart } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { serveChild } from './ipc.ts';

const API_KEY = 'bench-peer-key';
const PATH = '/api/v1/a2a/peer';

function status(
  taskId: string,
  contextId: string,
  state: 'working' | 'completed',
  message?: Message,
  final = false,
): TaskStatusUpdateEvent {
  return {
    kind: 'status-update',
    taskId,
    contextId,
    status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
    final,
  };
}

/** The echo agent: the same states and reply as the reference agent without a directive. */
class EchoExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    if (context.task === undefined) {
      const task: Task = {
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [userMessage],
      };
      bus.publish(task);
    }
    bus.publish(status(taskId, contextId, 'working'));
    const text = userMessage.parts
      .filter((part): part is TextPart => part.kind === 'text')
      .map((part) => part.text)
      .join('\n');
    const reply: Message = {
      kind: 'message',
      role: 'agent',
      messageId: randomUUID(),
      parts: [{ kind: 'text', text: `echo ${JSON.stringify(text)}` }],
      taskId,
      contextId,
    };
    bus.publish(status(taskId, contextId, 'completed', reply, true));
    bus.finished();
  }

  async cancelTask(): Promise<void> {}
}

const card: AgentCard = {
  name: 'bench peer',
  description: 'echo agent for the a2a-conformance benchmark',
  url: `http://127.0.0.1${PATH}`,
  version: '1.0.0',
  protocolVersion: '0.3.0',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor());
const app = express();
app.use(PATH, (req, res, next) => {
  if (req.header('x-api-key') === API_KEY) return next();
  res.status(401).json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized' } });
});
app.use(PATH, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveChild({ url: `http://127.0.0.1:${port}${PATH}`, apiKey: API_KEY }, {}, async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
