// The method table of spec section 4: one handler per method name of schemas/error-codes.ts METHODS.
import type { MethodName } from '../../schemas/error-codes.ts';
import type { MethodHandler } from './context.ts';
import { extendedCard } from './extended-card.ts';
import { messageSend } from './message-send.ts';
import { messageStream } from './message-stream.ts';
import { pushConfigGet, pushConfigSet } from './push-config.ts';
import { tasksCancel } from './tasks-cancel.ts';
import { tasksGet } from './tasks-get.ts';
import { tasksResubscribe } from './tasks-resubscribe.ts';

export const METHOD_HANDLERS: Readonly<Record<MethodName, MethodHandler>> = Object.freeze({
  'message/send': messageSend,
  'message/stream': messageStream,
  'tasks/get': tasksGet,
  'tasks/cancel': tasksCancel,
  'tasks/resubscribe': tasksResubscribe,
  'tasks/pushNotificationConfig/set': pushConfigSet,
  'tasks/pushNotificationConfig/get': pushConfigGet,
  'agent/authenticatedExtendedCard': extendedCard,
});
