// Shared types of the reference server: the wire objects it produces (spec sections 2.3-2.10) and
// the resolved per-agent configuration (spec 2.14, CLARIFICATIONS C-04, C-05, C-42, C-44).
import type { MethodName, TaskState } from '../schemas/error-codes.ts';
import type { DeliveryRecord } from './webhooks/types.ts';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface FilePart {
  type: 'file';
  file: { name: string; mimeType: string; bytes: string };
}

export type Part = TextPart | FilePart;

export interface Message {
  role: 'user' | 'agent';
  messageId: string;
  parts: Part[];
}

export interface TaskProgress {
  current: number;
  total: number;
  message: string;
}

export interface TaskError {
  code: string;
  message: string;
}

/** Spec 2.8: message when completed, error when failed, progress when working, reason when canceled. */
export interface TaskStatus {
  state: TaskState;
  message?: Message;
  error?: TaskError;
  progress?: TaskProgress;
  reason?: string;
}

export interface FileUploadCapability {
  supported: boolean;
  maxFileSize: number;
  supportedTypes: string[];
}

export interface AgentCapabilities {
  supportedMethods: MethodName[];
  fileUpload: FileUploadCapability;
  streaming: boolean;
  multiTurn: boolean;
  webhooks: boolean;
}

export interface AgentLimits {
  requestsPerMinute: number;
  concurrentTasks: number;
  maxMessageLength: number;
}

export type AgentStatus = 'active' | 'inactive' | 'maintenance';

/** A fully resolved agent: every default filled in. */
export interface AgentConfig {
  id: string;
  name: string;
  description: string;
  version: string;
  type: string;
  status: AgentStatus;
  apiKeys: string[];
  bearerTokens: string[];
  capabilities: AgentCapabilities;
  limits: AgentLimits;
  /** C-05: a working task older than this is canceled with reason "system timeout". */
  systemTimeoutMs: number;
  /** C-31: interval of the `: ping` SSE comment. */
  keepAliveMs: number;
  /**
   * How long every task works before its directive's own work (a model's turn: the field conditions'
   * slow agents); 0 by default. The stream announces the task at once; its final event comes after.
   */
  turnMs: number;
  /** C-44: retention cap of the per-agent task store. */
  maxTasks: number;
  /** C-42: concurrent SSE streams allowed per agent. */
  maxStreams: number;
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends unknown[] ? T[K] : DeepPartial<T[K]> };

/** What callers and config files give: only `id` is required. */
export type AgentConfigInput = { id: string } & DeepPartial<Omit<AgentConfig, 'id'>>;

export interface ReferenceServerOptions {
  host?: string;
  port?: number;
  agents?: AgentConfigInput[];
  /** C-38: allowed CORS origins; `['*']` (the default) allows any origin. */
  corsOrigins?: string[];
  /** C-19: let webhooks target private, loopback and link-local addresses. */
  allowPrivateWebhookTargets?: boolean;
  /** C-47: the header section must arrive within this many ms (default 10000). */
  headersTimeoutMs?: number;
  /** C-47: the whole request, body included, must arrive within this many ms (default 60000). */
  requestTimeoutMs?: number;
  /** Webhook deliveries kept for deliveryLog(), most recent first evicted last (default 1000). */
  deliveryLogSize?: number;
  /** C-50: webhook events queued, in flight or awaiting a retry, across agents (default 10000). */
  maxPendingDeliveries?: number;
  /**
   * Where tasks, conversations, webhook configurations and retries, and rate windows live:
   * `memory` (the default, one process) or a `redis://` URL that replicas share.
   */
  store?: string;
}

export interface ReferenceServer {
  /** `http://host:port`, no trailing slash and no `/api/v1` path. */
  baseUrl: string;
  agents: AgentConfig[];
  /** The kind of store in use: `memory` or `redis`. */
  store: string;
  /** The most recent webhook deliveries (C-20), oldest first, with every attempt; diagnostics only. */
  deliveryLog(): DeliveryRecord[];
  close(): Promise<void>;
}
