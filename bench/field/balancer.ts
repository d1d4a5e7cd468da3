// A loopback load balancer in front of replicas of an agent (`npm run field`'s replica conditions and
// the replica tests): round-robin sends each request to the next replica; sticky keeps a client
// connection on the replica its first request went to (per-connection affinity, as most L4 and
// HTTP/1.1 balancers do). A replica that refuses the connection (it stopped) is skipped, as a
// balancer's health check would; nothing else of the exchange is changed.
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { forward, listen, pipeAnswer, readBody } from '../../harness/kit/loopback.ts';

export type BalancerMode = 'round-robin' | 'sticky';

export interface Balancer {
  baseUrl: string;
  /** Requests sent to each replica, in the order the replicas were given. */
  counts(): number[];
  close(): Promise<void>;
}

/** The replica never got the request: trying another one is safe. */
function notConnected(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE';
}

export async function startBalancer(replicas: readonly string[], mode: BalancerMode): Promise<Balancer> {
  if (replicas.length === 0) throw new Error('a balancer needs at least one replica');
  const counts = replicas.map(() => 0);
  const affinity = new WeakMap<Socket, number>();
  let next = 0;
  const pick = (socket: Socket): number => {
    const kept = mode === 'sticky' ? affinity.get(socket) : undefined;
    if (kept !== undefined) return kept;
    const chosen = next;
    next = (next + 1) % replicas.length;
    if (mode === 'sticky') affinity.set(socket, chosen);
    return chosen;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      let index = pick(req.socket);
      for (let tries = 0; tries < replicas.length; tries += 1) {
        let answer: IncomingMessage;
        try {
          answer = await forward(req, res, replicas[index] as string, { body });
        } catch (error) {
          if (!notConnected(error) || res.destroyed) throw error;
          index = (index + 1) % replicas.length;
          if (mode === 'sticky') affinity.set(req.socket, index);
          continue;
        }
        counts[index] = (counts[index] as number) + 1;
        return pipeAnswer(answer, res);
      }
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no replica answered\n');
    })().catch(() => res.destroy());
  });
  const { baseUrl, close } = await listen(server);
  return { baseUrl, counts: () => [...counts], close };
}
