// Spec 3 as a model-based property (fast-check commands): random sequences of send, stream, get,
// cancel, resubscribe and wait over a few tasks never show a transition outside the table, a final
// state left, or channels disagreeing on a task's end (rules 1-2, C-06..C-08). Observer: state-model.ts.
import fc from 'fast-check';
import { suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { cardLimit, streamingClaimed } from '../support/card.ts';
import { directivesHonoured, scriptParts } from '../support/directives.ts';
import { messageParams } from '../support/messages.ts';
import { resultOf, resultOfEvent, type JsonObject } from '../support/rpc.ts';
import { isFinalState, stateOf } from '../support/tasks.ts';
import { sleep } from '../support/timing.ts';
import { directiveOf, Observer, type Script } from './state-model.ts';

suiteFile({
  cost: { requests: 3, turns: 1 },
  span: 'long',
});

/** Tasks per generated run: enough to mix states, few enough to stay under the concurrency limit. */
const MAX_TASKS = 3;
// One model run costs about as much as eight ordinary property cases (several requests and waits).
const RUNS_PER_MODEL_RUN = 8;

interface Model {
  tasks: number;
  /** runUntilCanceled tasks not yet cancelled: a message/send queued behind them could block. */
  holders: number;
  canStream: boolean;
  slots: number;
}

type Cmd = fc.AsyncCommand<Model, Observer>;

const arbScript: fc.Arbitrary<Script> = fc.record({
  delayMs: fc.constantFrom(0, 10, 30, 60),
  progressSteps: fc.constantFrom(0, 1, 2),
  ending: fc.constantFrom('complete', 'fail', 'runUntilCanceled'),
  finishOnCancel: fc.boolean(),
});

function parts(o: Observer, script: Script): ReturnType<typeof scriptParts> {
  return scriptParts('generated', o.directives ? directiveOf(script) : undefined);
}

function pick(o: Observer, k: number): Observer['tasks'][number] {
  return o.tasks[k % o.tasks.length]!;
}

class SendCmd implements Cmd {
  constructor(readonly script: Script) {}
  check = (m: Readonly<Model>): boolean => m.tasks < MAX_TASKS && m.holders === 0;
  async run(m: Model, o: Observer): Promise<void> {
    const script: Script = { ...this.script, ending: this.script.ending === 'fail' ? 'fail' : 'complete' };
    const ex = await o.c.rpc('message/send', messageParams(parts(o, script)));
    const result = resultOf(ex);
    if (typeof result?.id !== 'string')
      throw new Error(`message/send answered no task: ${JSON.stringify(ex.response.json)}`);
    m.tasks += 1;
    o.see(
      o.add(result!.id as string, o.directives ? script : undefined),
      stateOf(result),
      'message/send result',
    );
  }
  toString = (): string => `send(${JSON.stringify(this.script)})`;
}

class StreamCmd implements Cmd {
  constructor(readonly script: Script) {}
  check = (m: Readonly<Model>): boolean => m.canStream && m.tasks < MAX_TASKS && m.holders < m.slots - 1;
  async run(m: Model, o: Observer): Promise<void> {
    const stream = await o.c.stream('message/stream', messageParams(parts(o, this.script)), {
      closeOnFinal: true,
      totalMs: 10_000,
    });
    let id: unknown;
    for await (const ev of stream.events()) {
      id = resultOfEvent(ev)?.id;
      break;
    }
    if (typeof id !== 'string') throw new Error('the first message/stream event carries no result.id');
    m.tasks += 1;
    if (o.directives && this.script.ending === 'runUntilCanceled') m.holders += 1;
    o.add(id as string, o.directives ? this.script : undefined).streams.push({
      via: 'message/stream',
      stream,
    });
  }
  toString = (): string => `stream(${JSON.stringify(this.script)})`;
}

class GetCmd implements Cmd {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>): boolean => m.tasks > 0;
  async run(_m: Model, o: Observer): Promise<void> {
    const task = pick(o, this.k);
    o.see(task, stateOf(resultOf(await o.c.rpc('tasks/get', { taskId: task.taskId }))), 'tasks/get');
  }
  toString = (): string => `get(#${this.k})`;
}

class CancelCmd implements Cmd {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>): boolean => m.tasks > 0;
  async run(m: Model, o: Observer): Promise<void> {
    const task = pick(o, this.k);
    const ex = await o.c.rpc('tasks/cancel', { taskId: task.taskId, reason: 'generated cancel' });
    if (task.script?.ending === 'runUntilCanceled' && !isFinalState(task.seq.at(-1))) m.holders -= 1;
    o.seeCancel(task, ex, 'tasks/cancel');
  }
  toString = (): string => `cancel(#${this.k})`;
}

class ResubscribeCmd implements Cmd {
  constructor(
    readonly k: number,
    readonly listenMs: number,
  ) {}
  check = (m: Readonly<Model>): boolean => m.canStream && m.tasks > 0;
  async run(_m: Model, o: Observer): Promise<void> {
    const task = pick(o, this.k);
    const stream = await o.c.stream(
      'tasks/resubscribe',
      { taskId: task.taskId },
      { closeOnFinal: true, totalMs: 10_000 },
    );
    await Promise.race([stream.done, sleep(this.listenMs)]);
    const t = await stream.close();
    // C-09: a final task may answer plain JSON: its state is a sequential read.
    if (t.isEventStream) {
      task.streams.push({ via: 'tasks/resubscribe', stream });
      return;
    }
    // C-09: a final task may answer plain JSON, whose state is a sequential read; an error answer
    // (-32004, spec 4.5) says nothing about the state.
    const result = (t.json as { result?: unknown } | null | undefined)?.result;
    if (result !== undefined) o.see(task, stateOf(result as JsonObject), 'tasks/resubscribe answer');
  }
  toString = (): string => `resubscribe(#${this.k}, ${this.listenMs} ms)`;
}

class WaitCmd implements Cmd {
  constructor(readonly ms: number) {}
  check = (): boolean => true;
  async run(): Promise<void> {
    await sleep(this.ms);
  }
  toString = (): string => `wait(${this.ms} ms)`;
}

const arbCommands = fc.commands(
  [
    arbScript.map((s) => new SendCmd(s)),
    arbScript.map((s) => new StreamCmd(s)),
    fc.nat(MAX_TASKS - 1).map((k) => new GetCmd(k)),
    fc.nat(MAX_TASKS - 1).map((k) => new CancelCmd(k)),
    fc.tuple(fc.nat(MAX_TASKS - 1), fc.constantFrom(10, 40)).map(([k, ms]) => new ResubscribeCmd(k, ms)),
    fc.constantFrom(5, 20, 40).map((ms) => new WaitCmd(ms)),
  ],
  { maxCommands: 8 },
);

/**
 * The generated command list as the property's value. The report transports a counterexample as
 * data, so its only own field is the text of the commands that ran (functions cannot travel);
 * iteration goes to fast-check's own list, which keeps its shrinking of the commands that ran.
 */
class CommandRun implements Iterable<Cmd> {
  ran = '';
  readonly #cmds: Iterable<Cmd>;

  constructor(cmds: Iterable<Cmd>) {
    this.#cmds = cmds;
  }

  [Symbol.iterator](): Iterator<Cmd> {
    return this.#cmds[Symbol.iterator]();
  }

  toString(): string {
    return String(this.#cmds);
  }
}

/** Ends every task (cancel, then read it), so each has a final state and no slot stays held. */
async function cleanup(o: Observer): Promise<void> {
  await Promise.all(
    o.tasks.map(async (task) => {
      if (!isFinalState(task.seq.at(-1))) {
        o.seeCancel(task, await o.c.rpc('tasks/cancel', { taskId: task.taskId }), 'cleanup tasks/cancel');
      }
      o.see(
        task,
        stateOf(resultOf(await o.c.rpc('tasks/get', { taskId: task.taskId }))),
        'cleanup tasks/get',
      );
    }),
  );
}

async function modelRun(c: CheckContext, directives: boolean, cmds: CommandRun): Promise<void> {
  const o = new Observer(c, directives);
  const model: Model = {
    tasks: 0,
    holders: 0,
    canStream: streamingClaimed(c),
    slots: cardLimit(c, 'concurrentTasks') ?? 1,
  };
  try {
    await fc.asyncModelRun(() => ({ model, real: o }), cmds);
  } finally {
    cmds.ran = cmds.toString();
    await cleanup(o);
  }
  await o.verify();
}

/**
 * The property checks both rules at once (a final state left is also a step outside the table); the
 * two ledger ids each run half of the model runs, derived from the run's --runs.
 */
// A model run after the first: a few sends or streams and their reads (about eight ordinary cases).
const MODEL_RUN = { property: { requests: 8, turns: 2, runsDivisor: 2 * RUNS_PER_MODEL_RUN } };

function propertyCheck(c: CheckContext, directives: boolean): Promise<boolean> {
  if (!directives) c.info('no directive contract: generated tasks are plain messages');
  const runs = Math.max(1, Math.ceil(c.config.runs / RUNS_PER_MODEL_RUN / 2));
  const arb = arbCommands.map((cmds) => new CommandRun(cmds));
  return c.property('section 3 model', arb, (cmds) => modelRun(c, directives, cmds), { numRuns: runs });
}

verifies(
  '3/listed-transitions-only',
  'generated send/stream/get/cancel/resubscribe/wait runs never step outside the table',
  async (c) => {
    await propertyCheck(c, await directivesHonoured(c));
  },
  MODEL_RUN,
);

verifies(
  '3/final-states-terminal',
  'generated send/stream/get/cancel/resubscribe/wait runs never leave a final state',
  async (c) => {
    await propertyCheck(c, await directivesHonoured(c));
  },
  MODEL_RUN,
);
