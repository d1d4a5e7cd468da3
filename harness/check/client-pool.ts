// A check's clients: each made with the run's target, credentials and governor, and every exchange
// they send evidence of the check (with those it cites of another check's shared sample).
import type { Exchange } from '../../core/evidence.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import {
  createTargetClient,
  type TargetClient,
  type TargetClientOptions,
} from '../io/target/target-client.ts';
import { secretsOf, targetOptions, type ProvidedRun } from '../provided.ts';
import { runGovernor } from './run-governor.ts';

export class ClientPool {
  private readonly clients: TargetClient[] = [];

  constructor(
    private readonly run: ProvidedRun,
    /** Counts this pool's requests; the governor's waits do not spend the check's budget. */
    readonly tally?: TrafficTally,
    private readonly signal?: AbortSignal,
    /** The check fills or overflows the agent's task slots on purpose (verifies' overflowsTasks, C-21). */
    private readonly overflowTasks = false,
  ) {}

  create(overrides: Partial<TargetClientOptions> = {}): TargetClient {
    const client = createTargetClient({
      ...targetOptions(this.run),
      governor: runGovernor(this.run),
      ...(this.tally === undefined ? {} : { tally: this.tally }),
      ...(this.signal === undefined ? {} : { signal: this.signal }),
      ...(this.overflowTasks ? { overflowTasks: true } : {}),
      ...overrides,
      secrets: [...secretsOf(this.run), ...(overrides.secrets ?? [])],
    });
    this.clients.push(client);
    return client;
  }

  private readonly cited: Exchange[] = [];

  /** Exchanges another check of the run sent that this check's verdict reads (a shared sample). */
  cite(exchanges: readonly Exchange[]): void {
    for (const ex of exchanges) if (!this.cited.includes(ex)) this.cited.push(ex);
  }

  /** Every exchange this pool's clients sent (none it cites), in creation order per client. */
  ownExchanges(): Exchange[] {
    return this.clients.flatMap((c) => c.exchanges());
  }

  /** Every exchange of every client, in creation order per client, then those the check cites. */
  exchanges(): Exchange[] {
    const own = this.ownExchanges();
    return [...own, ...this.cited.filter((ex) => !own.includes(ex))];
  }

  /** Every secret this pool's clients redact: the run's and any a client was given or added. */
  secrets(): string[] {
    return [...new Set([...secretsOf(this.run), ...this.clients.flatMap((c) => c.secrets())])];
  }

  /** Requests this pool's clients sent that the target has not answered yet (TargetClient.unanswered). */
  unanswered(): number {
    return this.clients.reduce((n, c) => n + c.unanswered(), 0);
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
  }
}
