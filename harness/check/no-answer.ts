// The error of a call that got no complete HTTP answer where the check needed one (a reset, a
// timeout the harness chose, an answer cut short, a gateway's page): a transport fault, never a
// finding (STYLE). Its own module so that the re-run policy (reruns.ts) and the cases (cases.ts)
// read it without importing the check context.
import type { Exchange } from '../../core/evidence.ts';

/** The target gave no HTTP answer where the check needed one: a harness-side `error`, not a finding. */
export class NoAnswerError extends Error {
  constructor(readonly exchange: Exchange) {
    super(
      `no answer from the target${exchange.error === undefined ? '' : ` (fault: ${exchange.error.kind})`} for ${exchange.request.method} ${exchange.request.url}: ${exchange.error?.message ?? 'unknown'}`,
    );
    this.name = 'NoAnswerError';
  }
}
