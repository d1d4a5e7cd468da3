// message/send (spec 4.1; C-21, C-25): validates, creates the task and blocks until it is final;
// the result is the task with `final: true` and the reply in status.message.
import { readMessageParams } from '../rpc/message-params.ts';
import { paramsObject } from '../rpc/params.ts';
import { assertNoDirectedFault, taskView, type MethodHandler } from './context.ts';

export const messageSend: MethodHandler = async ({ runtime, params }) => {
  const input = await readMessageParams(paramsObject(params, true), runtime.config, runtime.engine.table);
  assertNoDirectedFault(input.message);
  const task = await runtime.engine.create(input);
  const final = await runtime.engine.waitForFinal(task);
  return { result: { ...taskView(final), final: true } };
};
