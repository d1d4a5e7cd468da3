// The replicas of a replicated agent (--replica, repeatable): each replica's base URL besides the
// balanced --target, a check context whose requests go to one replica, and the task the
// cross-replica checks make through the first replica and act on through the others. A task made
// through one replica must be known to every other (tasks/get, tasks/cancel, tasks/resubscribe and
// its webhook configuration are all the same agent's answers, spec 4.3-4.7); a replica that answers
// it "not found" keeps the task in its own memory (docs/certify-replicas.md).
import { requireAnswer, type AnsweredExchange, type CheckContext } from '../../harness/check/index.ts';
import { sendTask, textPart } from './messages.ts';
import { errorOf } from './rpc.ts';
import { awaitState, isFinalState, stateOf } from './tasks.ts';

/** Why a cross-replica check has nothing to grade without two replicas. */
export const NO_REPLICAS =
  'no --replica given (at least two): the cross-replica checks need the base URL of each replica besides the balanced --target';

/** The replicas' base URLs when at least two were given, else none (one address tells nothing apart). */
export function givenReplicas(c: CheckContext): readonly string[] {
  const urls = c.config.field.replicas ?? [];
  return urls.length >= 2 ? urls : [];
}

/** The replicas' base URLs, at least two, or the check ends not-applicable. */
export function replicaUrls(c: CheckContext): readonly string[] {
  const urls = givenReplicas(c);
  if (urls.length === 0) c.notApplicable(NO_REPLICAS);
  return urls;
}

/** The check's context with every request (rpc, stream, the helpers built on them) sent to one replica. */
export function onReplica(c: CheckContext, baseUrl: string): CheckContext {
  const client = c.newClient({ baseUrl });
  const view: CheckContext = {
    ...c,
    target: { ...c.target, baseUrl },
    client,
    // No answer from a replica is a harness error, as from the target (harness/check/context.ts).
    rpc: async (method, params, opts) => requireAnswer(await client.rpc(method, params, opts)),
    stream: (method, params, opts) => client.stream(method, params, opts),
  };
  return view;
}

/** What a replica that did not know the task answered: the error, when it is one. */
export function notKnown(ex: AnsweredExchange): string | undefined {
  const error = errorOf(ex);
  return error === undefined ? undefined : `error ${error.code} ${JSON.stringify(error.message)}`;
}

export interface ReplicaTask {
  /** The replica the task was made through. */
  maker: string;
  /** The maker with a context whose requests go to it. */
  made: { url: string; c: CheckContext };
  taskId: string;
  /** Its final state as the maker read it. */
  state: unknown;
  /** The other replicas, each with a context whose requests go to it. */
  others: ReadonlyArray<{ url: string; c: CheckContext }>;
}

/** A task made through the first replica and read until final there; not-applicable without replicas. */
export async function taskOnFirstReplica(c: CheckContext, what: string): Promise<ReplicaTask> {
  const [maker, ...rest] = replicaUrls(c);
  const on = onReplica(c, maker!);
  const { task } = await sendTask(on, [textPart(`conformance: ${what}, made through replica ${maker}`)]);
  const taskId = task.id as string;
  c.require(`task made through replica ${maker}: result.id`, typeof taskId, 'string');
  const final = isFinalState(stateOf(task)) ? task : await awaitState(on, taskId, isFinalState);
  const state = stateOf(final);
  if (!isFinalState(state))
    c.notExercised(`the task made through replica ${maker} did not end (${String(state)})`);
  return {
    maker: maker!,
    made: { url: maker!, c: on },
    taskId,
    state,
    others: rest.map((url) => ({ url, c: onReplica(c, url) })),
  };
}

/** The evidence line of a replica that did not know the task. */
export function didNotKnow(url: string, t: Pick<ReplicaTask, 'taskId' | 'maker'>, answered: string): string {
  return `replica ${url} did not know task ${t.taskId} made through replica ${t.maker}: ${answered}`;
}
