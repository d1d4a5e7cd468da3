// C-51: agent.status is reported and changes no method: an agent configured `inactive` or
// `maintenance` serves the card, messages, tasks, streams and webhook configurations as when `active`.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { AGENT_A, openStream, sendParams, startServer, stateOf } from './support.ts';

describe('C-51 agent status', () => {
  it.each(['inactive', 'maintenance'] as const)(
    'an agent %s reports it and serves every method',
    async (status) => {
      const h = await startServer({ agents: [{ ...AGENT_A, status }], allowPrivateWebhookTargets: true });
      const card = await h.rpc('agent/authenticatedExtendedCard');
      expect((card.result.agent as { status: string }).status).toBe(status);

      const sent = await h.rpc('message/send', sendParams('still working'));
      expect(sent.error).toBeUndefined();
      expect(stateOf(sent.result)).toBe('completed');
      const taskId = sent.result.id as string;
      expect(stateOf((await h.rpc('tasks/get', { taskId })).result)).toBe('completed');
      expect((await h.rpc('tasks/cancel', { taskId })).error?.code).toBe(ERROR_CODES.TASK_ALREADY_COMPLETED);
      expect((await h.rpc('tasks/resubscribe', { taskId })).result).toMatchObject({
        final: true,
        subscribed: false,
      });

      const stream = await openStream(h, 'message/stream', sendParams('streamed'));
      const events = [await stream.nextEvent(), await stream.nextEvent(), await stream.nextEvent()];
      expect(events.map((e) => stateOf(e.result as Record<string, unknown>))).toEqual([
        'submitted',
        'working',
        'completed',
      ]);

      const config = { url: 'http://127.0.0.1:9/hook' };
      expect((await h.rpc('tasks/pushNotificationConfig/set', { config })).result).toMatchObject({
        configured: true,
      });
      expect((await h.rpc('tasks/pushNotificationConfig/get')).result).toMatchObject({ active: true });
    },
  );
});
