// Live request metrics of one agent for the extended card (spec 2.14 metrics.*, C-30): every
// authenticated request counts; success means answered without a JSON-RPC error.

export interface MetricsSnapshot {
  totalRequests: number;
  /** Milliseconds, until the response (or the SSE stream's first byte) was sent. */
  averageResponseTime: number;
  /** Percentage 0..100; 100 before the first request. */
  successRate: number;
}

export class AgentMetrics {
  private total = 0;
  private succeeded = 0;
  private totalTimeMs = 0;

  record(durationMs: number, success: boolean): void {
    this.total += 1;
    if (success) this.succeeded += 1;
    this.totalTimeMs += Math.max(0, durationMs);
  }

  snapshot(): MetricsSnapshot {
    if (this.total === 0) return { totalRequests: 0, averageResponseTime: 0, successRate: 100 };
    const round = (value: number): number => Math.round(value * 100) / 100;
    return {
      totalRequests: this.total,
      averageResponseTime: round(this.totalTimeMs / this.total),
      successRate: round((this.succeeded / this.total) * 100),
    };
  }
}
