// The transport fault policy: what a failed exchange with the target was (a timeout we chose, no
// connection, a reset, a body over its cap, other), whether what came is still an answer a check may
// grade, and which requests are sent once more after which fault. One record per kind (FAULTS), keyed
// by the report's kinds (report.schema.json's ioError.kind, IoErrorKind): every list of kinds, codes
// and resends of the harness reads it. Serves every spec section the harness exercises over HTTP:
// an unreachable or cut-off target is a harness-side `error`, never a finding (STYLE: transport faults).
import type { Exchange, IoError, IoErrorKind, RecordedResponse } from '../../../core/evidence.ts';
import { BodyTooLargeError, errorCode, errorMessage } from './io-errors.ts';

/** How the harness treats one kind of transport fault. */
export interface FaultPolicy {
  /** Node and undici error codes classified as this kind (a code classifies as one kind at most). */
  codes: readonly string[];
  /** An exchange that got headers and then this fault still counts as an answer (its size the finding). */
  answer: boolean;
  /**
   * A read (READS) that got no byte of an answer because of this fault is sent once more, on another
   * connection and with its own id: a read changes nothing (RFC 9110 9.2.2). A call that may change
   * something is never resent: the agent may have acted on it (RFC 9112 9.3.1).
   */
  resendRead: boolean;
}

export const FAULTS: Readonly<Record<IoErrorKind, FaultPolicy>> = {
  // Also every request the harness's own deadline aborted, whatever undici reports.
  timeout: {
    codes: ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'],
    answer: false,
    resendRead: false,
  },
  connect: {
    codes: [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'EAI_AGAIN',
      'EADDRNOTAVAIL',
      'UND_ERR_CONNECT_TIMEOUT',
    ],
    answer: false,
    resendRead: false,
  },
  // A kept-alive connection the agent's side had just closed as idle, a gateway recycling its sockets.
  reset: {
    codes: ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'],
    answer: false,
    resendRead: true,
  },
  // Thrown by the body reader (BodyTooLargeError): reading stopped at the cap.
  'body-too-large': {
    codes: [],
    answer: true,
    resendRead: false,
  },
  other: { codes: [], answer: false, resendRead: false },
};

const KIND_OF_CODE = new Map<string, IoErrorKind>(
  (Object.entries(FAULTS) as Array<[IoErrorKind, FaultPolicy]>).flatMap(([kind, f]) =>
    f.codes.map((code) => [code, kind] as const),
  ),
);

/**
 * Classifies a failure. `deadlineHit` is true when the harness's own total deadline aborted the
 * request, which is always a timeout whatever undici reports.
 */
export function classifyError(err: unknown, deadlineHit: boolean): IoError {
  const code = errorCode(err);
  const message = errorMessage(err);
  const kind: IoErrorKind =
    err instanceof BodyTooLargeError
      ? 'body-too-large'
      : deadlineHit
        ? 'timeout'
        : ((code === undefined ? undefined : KIND_OF_CODE.get(code)) ?? 'other');
  return code === undefined ? { kind, message } : { kind, message, code };
}

/** An exchange that got an HTTP answer. */
export type AnsweredExchange = Exchange & { response: RecordedResponse };

/**
 * An HTTP answer the target finished: headers followed by a deadline, a reset or a dropped
 * connection are no answer (the harness could not conclude). A body over the cap is an answer, and
 * its size the finding.
 */
export function completeAnswer(ex: Exchange): ex is AnsweredExchange {
  return ex.response !== undefined && (ex.error === undefined || FAULTS[ex.error.kind].answer);
}

/** The spec's methods that only read (tasks, a webhook configuration, the extended card). */
const READS = new Set(['tasks/get', 'tasks/pushNotificationConfig/get', 'agent/authenticatedExtendedCard']);

/**
 * Sends a call, and a read once more when it got no byte of an answer for a fault that resends reads
 * (FaultPolicy.resendRead). Both exchanges stay in the evidence, the first saying it was sent again.
 */
export async function sendResendingReads(method: string, send: () => Promise<Exchange>): Promise<Exchange> {
  const first = await send();
  if (!READS.has(method) || first.response !== undefined || first.error === undefined) return first;
  if (!FAULTS[first.error.kind].resendRead) return first;
  first.error.message += ' (the connection closed before any answer: a read, sent once more)';
  return send();
}
