import type { JsonSchema, PermissionMode } from '../../core/index.js';

/** An agent type as written in config or in an agent file's front matter (the prompt is the file's body). */
export interface AgentTypeFields {
  description?: string;
  prompt?: string;
  /** Tool names or `*` patterns (`mcp__github__*`); `Task` only by its exact name. Default: the read-only set. */
  tools?: string[];
  /** A model the provider knows, or `inherit` (the caller's model, the default). */
  model?: string;
  /** The permission mode the agent runs in; never looser than the caller's. Default: `plan` with the read-only set, else the caller's. */
  permissionMode?: PermissionMode;
  maxTurns?: number;
  maxTokens?: number;
  maxCostUsd?: number;
}

/** A usable agent type: complete, with where it was defined. */
export interface AgentType extends AgentTypeFields {
  name: string;
  description: string;
  prompt: string;
  /** `built-in`, a config file, or an agent file's path. */
  source: string;
}

/** Tools a type gets when it names none: reading and searching, plus shell commands proven read-only (plan mode). */
export const READ_ONLY_TOOLS = ['Read', 'Grep', 'Glob', 'LS', 'Bash'];

/** Most model turns of a sub-agent whose type sets no `maxTurns`. */
export const DEFAULT_MAX_TURNS = 30;

/** Type names: what the model writes in `subagent_type`, and part of every sub-agent's id. */
export const AGENT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,47}$/;

const MODES: PermissionMode[] = ['plan', 'default', 'acceptEdits', 'bypass'];

/** The stricter of two permission modes (plan is the strictest, bypass the loosest). */
export function stricterMode(a: PermissionMode, b: PermissionMode): PermissionMode {
  return MODES.indexOf(a) <= MODES.indexOf(b) ? a : b;
}

/** The mode a sub-agent of `type` runs in under a caller in `callerMode`. */
export function agentMode(type: AgentTypeFields, callerMode: PermissionMode): PermissionMode {
  const own = type.permissionMode ?? (type.tools ? callerMode : 'plan');
  return stricterMode(own, callerMode);
}

const fieldSchemas: Record<keyof AgentTypeFields, JsonSchema> = {
  description: { type: 'string', minLength: 1 },
  prompt: { type: 'string', minLength: 1 },
  tools: { type: 'array', items: { type: 'string', pattern: '^[a-zA-Z0-9_*-]{1,64}$' } },
  model: { type: 'string', minLength: 1 },
  permissionMode: { enum: MODES },
  maxTurns: { type: 'integer', minimum: 1 },
  maxTokens: { type: 'integer', minimum: 1 },
  maxCostUsd: { type: 'number', exclusiveMinimum: 0 },
};

/** JSON Schema of one agent type; `required` lists what a new type must say. */
export function agentTypeSchema(required: Array<keyof AgentTypeFields> = []): JsonSchema {
  return { type: 'object', additionalProperties: false, required, properties: fieldSchemas };
}

/**
 * The `agents` config key: type name → type. New types need a description and a prompt; `general`
 * (built in) may be adjusted field by field.
 */
export const optionsSchema: JsonSchema = {
  type: 'object',
  propertyNames: { pattern: AGENT_NAME.source },
  properties: { general: agentTypeSchema() },
  additionalProperties: agentTypeSchema(['description', 'prompt']),
};

/** The plugin's options: the `agents` config key. */
export type AgentsOptions = Record<string, AgentTypeFields>;
