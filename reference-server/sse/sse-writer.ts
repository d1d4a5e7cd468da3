// Server-Sent Events framing for message/stream and tasks/resubscribe (spec 4.2, 6.6; C-31):
// each event is exactly `data: <compact JSON>\n\n`, `: ping\n\n` keeps idle connections open, and
// the stream ends right after the final event.
import type { ServerResponse } from 'node:http';

export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  // Reverse proxies (nginx) buffer responses unless told not to, which would hold events back.
  'X-Accel-Buffering': 'no',
});

export const PING_FRAME = ': ping\n\n';

/** JSON.stringify never emits a raw line break, so one event is always exactly one `data:` line. */
export function dataFrame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export class SseStream {
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  private readonly closeHandlers: Array<() => void> = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs: number,
  ) {
    res.on('close', () => this.teardown());
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Sends the status line and headers at once so the client sees the stream open. */
  open(extraHeaders: Record<string, string>): void {
    this.res.writeHead(200, { ...extraHeaders, ...SSE_HEADERS });
    this.res.flushHeaders();
    this.timer = setInterval(() => this.write(PING_FRAME), this.keepAliveMs);
    this.timer.unref();
  }

  send(payload: unknown): void {
    this.write(dataFrame(payload));
  }

  /** Ends the response; the close handlers run once, whether the server or the client closed first. */
  end(): void {
    if (!this.ended) this.res.end();
    this.teardown();
  }

  onClose(handler: () => void): void {
    if (this.ended) handler();
    else this.closeHandlers.push(handler);
  }

  private write(frame: string): void {
    if (this.ended || this.res.destroyed) return;
    this.res.write(frame);
  }

  private teardown(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
