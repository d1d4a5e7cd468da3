// In-memory webhook configurations per agent, one per scope (ruling C-17): an agent-level config and
// at most `maxTaskConfigsPerAgent` task-level ones (C-42). A set on a scope replaces its config.
import { randomUUID } from 'node:crypto';
import type { ConfigTable } from '../store/types.ts';
import type { Outcome, StoredConfig, WebhookConfigInput } from './types.ts';
import { invalidParams } from './config-validation.ts';

interface AgentConfigs {
  agentLevel: StoredConfig | undefined;
  byTask: Map<string, StoredConfig>;
}

export interface ConfigStore extends ConfigTable {
  /** Stores `input` for the scope; returns the new config and the one it replaced, if any. */
  put(
    agentId: string,
    taskId: string | undefined,
    input: WebhookConfigInput,
  ): Outcome<{ stored: StoredConfig; replaced: StoredConfig | undefined }>;
  /** Exactly the requested scope, no fallback (C-17). */
  get(agentId: string, taskId: string | undefined): StoredConfig | undefined;
  /** The config that applies to a task's events: task-level, else agent-level (C-17). */
  resolve(agentId: string, taskId: string): StoredConfig | undefined;
  /** Drops a task's config (task evicted, C-44); returns it so pending deliveries can be canceled. */
  forgetTask(agentId: string, taskId: string): StoredConfig | undefined;
}

/** A config made from `input` for one scope. */
export function newStoredConfig(
  agentId: string,
  taskId: string | undefined,
  input: WebhookConfigInput,
): StoredConfig {
  return {
    ...input,
    configId: randomUUID(),
    agentId,
    taskId,
    createdAt: new Date().toISOString(),
    lastUsed: null,
  };
}

/** The refusal of a new task-level config beyond the bound (C-42). */
export function tooManyTaskConfigs(max: number): Outcome<never> {
  const details = `at most ${max} task-level webhook configurations per agent`;
  return { ok: false, error: invalidParams('taskId', details, { limit: max }) };
}

export function createConfigStore(maxTaskConfigsPerAgent: number): ConfigStore {
  const agents = new Map<string, AgentConfigs>();

  const agentEntry = (agentId: string): AgentConfigs => {
    let entry = agents.get(agentId);
    if (!entry) {
      entry = { agentLevel: undefined, byTask: new Map() };
      agents.set(agentId, entry);
    }
    return entry;
  };

  return {
    put(agentId, taskId, input) {
      const entry = agentEntry(agentId);
      const replaced = taskId === undefined ? entry.agentLevel : entry.byTask.get(taskId);
      // Replacing an existing task config never counts against the bound; only a new task does.
      if (taskId !== undefined && !replaced && entry.byTask.size >= maxTaskConfigsPerAgent) {
        return tooManyTaskConfigs(maxTaskConfigsPerAgent);
      }
      const stored = newStoredConfig(agentId, taskId, input);
      if (taskId === undefined) entry.agentLevel = stored;
      else entry.byTask.set(taskId, stored);
      return { ok: true, result: { stored, replaced } };
    },

    get(agentId, taskId) {
      const entry = agents.get(agentId);
      if (!entry) return undefined;
      return taskId === undefined ? entry.agentLevel : entry.byTask.get(taskId);
    },

    resolve(agentId, taskId) {
      const entry = agents.get(agentId);
      return entry?.byTask.get(taskId) ?? entry?.agentLevel;
    },

    forgetTask(agentId, taskId) {
      const entry = agents.get(agentId);
      const config = entry?.byTask.get(taskId);
      entry?.byTask.delete(taskId);
      return config;
    },

    markUsed(config, at) {
      config.lastUsed = at;
    },
  };
}
