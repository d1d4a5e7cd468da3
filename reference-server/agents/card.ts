// The agent/authenticatedExtendedCard result (spec 2.14, 4.8; C-30, C-41, C-46): agent and limits
// always; capabilities unless includeCapabilities is false; metrics only when includeMetrics is true.
import type { AgentConfig } from '../types.ts';
import type { MetricsSnapshot } from './metrics.ts';

export interface CardOptions {
  includeCapabilities: boolean;
  includeMetrics: boolean;
}

export function buildExtendedCard(
  agent: AgentConfig,
  options: CardOptions,
  metrics: () => MetricsSnapshot,
): object {
  const { id, name, description, version, type, status, capabilities, limits } = agent;
  const card: Record<string, unknown> = { agent: { id, name, description, version, type, status } };
  if (options.includeCapabilities) {
    card.capabilities = {
      supportedMethods: [...capabilities.supportedMethods],
      fileUpload: { ...capabilities.fileUpload, supportedTypes: [...capabilities.fileUpload.supportedTypes] },
      streaming: capabilities.streaming,
      multiTurn: capabilities.multiTurn,
      webhooks: capabilities.webhooks,
    };
  }
  // C-05: the system timeout is advertised as an extension of limits so harnesses can discover it.
  card.limits = { ...limits, systemTimeoutMs: agent.systemTimeoutMs };
  if (options.includeMetrics) card.metrics = metrics();
  return card;
}
