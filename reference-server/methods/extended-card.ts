// agent/authenticatedExtendedCard (spec 4.8, 2.14; C-30): params optional; live metrics on request.
import { buildExtendedCard } from '../agents/card.ts';
import { paramsObject, readCardParams } from '../rpc/params.ts';
import type { MethodHandler } from './context.ts';

export const extendedCard: MethodHandler = ({ runtime, params }) => {
  const options = readCardParams(paramsObject(params, false));
  return { result: buildExtendedCard(runtime.config, options, () => runtime.metrics.snapshot()) };
};
