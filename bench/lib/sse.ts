// A minimal SSE client for the stream scenario (spec 4.2): one POST per stream on its own socket,
// counts `data:` events, notes the time of the first and of the final one (result.final true).
import { request, type Agent } from 'node:http';

export interface StreamOutcome {
  firstEventMs: number;
  finalEventMs: number;
  events: number;
  error?: string;
}

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  agent: Agent;
  /** performance.now() origin the times are taken from. */
  t0: number;
}

export function openStream(req: StreamRequest): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    const outcome: StreamOutcome = { firstEventMs: Number.NaN, finalEventMs: Number.NaN, events: 0 };
    const done = (error?: string): void => {
      if (error !== undefined && outcome.error === undefined) outcome.error = error;
      resolve(outcome);
    };
    const call = request(
      req.url,
      {
        method: 'POST',
        agent: req.agent,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...req.headers },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return done(`HTTP ${res.statusCode}`);
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data:'));
            if (data === undefined) continue; // `: ping` keep-alives
            onEvent(data.slice(5).trim());
          }
        });
        res.on('end', () =>
          done(Number.isNaN(outcome.finalEventMs) ? 'stream ended without a final event' : undefined),
        );
        res.on('error', (error) => done(error.message));
      },
    );
    const onEvent = (json: string): void => {
      const now = performance.now() - req.t0;
      outcome.events += 1;
      if (outcome.events === 1) outcome.firstEventMs = now;
      const event = JSON.parse(json) as { result?: { final?: boolean }; error?: { message?: string } };
      if (event.error !== undefined) outcome.error = `error event: ${event.error.message ?? ''}`;
      if (event.result?.final === true) outcome.finalEventMs = now;
    };
    call.on('error', (error) => done(error.message));
    call.end(req.body);
  });
}
