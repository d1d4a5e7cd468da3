// The io-layer tests' setup: a loopback fixture server (test/harness/io/fixture-server.ts) and a target
// client pointed at it, both closed after each test, so a test only writes how the server misbehaves.
import { afterEach } from 'vitest';
import {
  createTargetClient,
  type TargetClient,
  type TargetClientOptions,
} from '../../harness/io/target/target-client.ts';
import { startFixture, type Fixture, type Handler } from '../harness/io/fixture-server.ts';

export interface FixtureClients {
  /** Starts a fixture server with `handler` and a client of it: `defaults(url)`, then `options`. */
  setup: (handler: Handler, options?: Partial<TargetClientOptions>) => Promise<TargetClient>;
  /** The fixture server of the running test (what it saw: `seen`). */
  fixture: () => Fixture;
  /** A client of any base URL (e.g. a closed port), closed after the test like the others. */
  client: (options: TargetClientOptions) => TargetClient;
}

/** Registers the afterEach that closes what the test started; call once at a test file's top. */
export function fixtureClients(defaults: (url: string) => TargetClientOptions): FixtureClients {
  let fixture: Fixture | undefined;
  const clients: TargetClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await fixture?.close();
    fixture = undefined;
  });
  const client = (options: TargetClientOptions): TargetClient => {
    const c = createTargetClient(options);
    clients.push(c);
    return c;
  };
  return {
    setup: async (handler, options = {}) => {
      fixture = await startFixture(handler);
      return client({ ...defaults(fixture.url), ...options });
    },
    fixture: () => {
      if (fixture === undefined) throw new Error('no fixture server: call setup() first');
      return fixture;
    },
    client,
  };
}
