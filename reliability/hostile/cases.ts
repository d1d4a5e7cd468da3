// The hostile cases: a target, how it treats the probe, the CLI options of the run, and what the
// harness promises about it (exit code, requirements that must not pass). `npm run hostile` runs
// every case on the whole ledger; the test slice runs each on a small --only scope.
import type { ProbeMode, TargetName } from './hostile-targets.ts';

export interface HostileCase {
  /** Row name in the table. */
  name: string;
  target: TargetName;
  probe: ProbeMode;
  what: string;
  /**
   * The exit code of the short slice: 2 the run could not be done (or only errors), 1 a gating
   * requirement failed. On the whole ledger a run whose suites meet the hostility may also spend
   * its --budget-ms first with a check still waiting on the target, which is exit 2 whatever it
   * found: those cases allow 1 or 2 there. 0: no check got a complete answer, so none is evidence
   * (not-exercised, the level unverified).
   */
  exit: 0 | 1 | 2;
  /**
   * Another exit the short slice may give: 2 when the run's budget (and its grace) can end first with
   * a check still reading the target, by the runner's load.
   */
  orExit?: 2;
  /** --only scope of the short slice in `npm test`. */
  only: string[];
  /** Requirements whose verdict must not be pass (beyond "no pass at all" for exit-2-at-probe cases). */
  affected: string[];
  /** The probe fails: every requirement is error, none passes. */
  probeFails: boolean;
  /** Part of the short slice in `npm test` (the others share its code paths). */
  inSlice: boolean;
  /**
   * --timeout-ms for this case instead of the budget's: for a target whose hostility is aimed
   * elsewhere (the receiver) and whose answers wait on its own work in the test's process.
   */
  timeoutMs?: number;
}

const ERROR_IDS = ['7/parse-error-code', '7/method-not-found-code', '7/invalid-params-code'];
/** Rules that once passed vacuously on garbage (no error object, no event, the same page to both forms). */
const VACUOUS_ON_HTML = [
  '7/error-data-object',
  '4.2/stream-intermediate-not-final',
  '5/both-forms-must-be-valid',
];

export const CASES: readonly HostileCase[] = [
  {
    name: 'silent',
    target: 'silent',
    probe: 'hostile',
    what: 'accepts the connection, never answers',
    exit: 2,
    only: ['7/*'],
    affected: [],
    probeFails: true,
    inSlice: true,
  },
  {
    name: 'trickle',
    target: 'trickle',
    probe: 'hostile',
    what: 'headers, then one byte every 200 ms for ever',
    exit: 2,
    only: ['7/*'],
    affected: [],
    probeFails: true,
    inSlice: true,
  },
  {
    name: 'trickle (suites)',
    target: 'trickle',
    probe: 'honest',
    what: 'answers the probe, then trickles every answer',
    // No complete answer is no evidence: the checks end not-exercised naming the fault, the run exit 0
    // with the level unverified (a run that answers the probe is no unreachable target).
    exit: 0,
    only: ['7/method-not-found-code', '7/parse-error-code'],
    affected: ['7/method-not-found-code', '7/parse-error-code'],
    probeFails: false,
    inSlice: true,
  },
  {
    name: 'endless-sse',
    target: 'endless-sse',
    probe: 'honest',
    what: 'answers the probe, then an SSE stream of working events that never ends',
    // A stream with no final event within its budget is no complete answer: the checks end
    // not-exercised and the run exit 0, the level unverified; 2 when the run's budget ends first with
    // a check still reading.
    exit: 0,
    orExit: 2,
    only: ['4.2/stream-single-final-event', '4.2/stream-closed-after-final'],
    affected: ['4.2/stream-single-final-event', '4.2/stream-closed-after-final'],
    probeFails: false,
    inSlice: true,
  },
  {
    name: 'huge-body',
    target: 'huge-body',
    probe: 'hostile',
    what: 'a 100 MB answer to every request',
    exit: 2,
    only: ['7/*'],
    affected: [],
    probeFails: true,
    inSlice: true,
  },
  {
    name: 'huge-body (suites)',
    target: 'huge-body',
    probe: 'honest',
    what: 'answers the probe, then 100 MB to every request',
    exit: 1,
    only: ERROR_IDS,
    affected: ERROR_IDS,
    probeFails: false,
    inSlice: false,
  },
  {
    name: 'invalid-utf8',
    target: 'invalid-utf8',
    probe: 'hostile',
    what: 'JSON-RPC-shaped answers whose bytes are not UTF-8',
    // No answer parses as JSON-RPC, to the card or to message/send: not an A2A agent, exit 2 at the probe.
    exit: 2,
    only: ERROR_IDS,
    affected: [],
    probeFails: true,
    inSlice: true,
  },
  {
    name: 'html',
    target: 'html',
    probe: 'hostile',
    what: 'an HTML login page to every request',
    // Not an A2A agent (no JSON-RPC to the card or to message/send): exit 2 at the probe.
    exit: 2,
    only: [...ERROR_IDS, ...VACUOUS_ON_HTML],
    affected: [],
    probeFails: true,
    inSlice: true,
  },
  {
    name: 'wrong-content-type',
    target: 'wrong-content-type',
    probe: 'honest',
    what: 'the reference server with every answer relabelled text/plain',
    exit: 1,
    only: ['4/accept-header-streaming', '4.2/stream-content-type-sse'],
    affected: ['4/accept-header-streaming', '4.2/stream-content-type-sse'],
    probeFails: false,
    inSlice: true,
  },
  {
    name: 'reset',
    target: 'reset',
    probe: 'hostile',
    what: 'headers and half a body, then a TCP reset',
    exit: 2,
    only: ['7/*'],
    affected: [],
    probeFails: true,
    inSlice: true,
  },
  {
    name: 'reset (suites)',
    target: 'reset',
    probe: 'honest',
    what: 'answers the probe, then resets every answer mid-body',
    exit: 2,
    only: ['7/method-not-found-code', '7/parse-error-code'],
    affected: ['7/method-not-found-code', '7/parse-error-code'],
    probeFails: false,
    inSlice: false,
  },
  {
    name: 'redirect-loop',
    target: 'redirect-loop',
    probe: 'hostile',
    what: '307 between two paths, for ever',
    exit: 2,
    only: ['7/*'],
    affected: [],
    probeFails: true,
    inSlice: true,
  },
  {
    name: 'redirect-loop (suites)',
    target: 'redirect-loop',
    probe: 'honest',
    what: 'answers the probe, then 307 to every request',
    exit: 1,
    only: [...ERROR_IDS, '2.14/supported-methods-served'],
    affected: [...ERROR_IDS, '2.14/supported-methods-served'],
    probeFails: false,
    inSlice: true,
  },
  {
    name: 'webhook-flood',
    target: 'webhook-flood',
    probe: 'honest',
    what: 'floods the capture receiver with unasked 256 KiB deliveries',
    exit: 1,
    only: ['6.1/http-post-to-url', '6.2/delivery-id-per-event'],
    affected: ['6.2/delivery-id-per-event'],
    probeFails: false,
    inSlice: true,
    // The target floods from the test's own process, so on a loaded runner its answers to the
    // harness's calls wait behind its flood (an 800 ms --timeout-ms then ends the run as harness
    // errors, exit 2): the case is about the receiver, so its calls get 2.5 s, within the 3 s
    // check budget of the slice.
    timeoutMs: 2_500,
  },
];

/** The exit codes the short slice's run of `c` may give. */
export function sliceExits(c: HostileCase): ReadonlyArray<0 | 1 | 2> {
  return c.orExit === undefined ? [c.exit] : [c.exit, c.orExit];
}

/** The exit codes a whole-ledger run of `c` may give (never 0). */
export function wholeLedgerExits(c: HostileCase): ReadonlyArray<1 | 2> {
  return c.probeFails ? [2] : [1, 2];
}
