import type { JsonSchema } from '../../core/index.js';

/** Settings every server entry may have, whatever its transport. */
interface CommonSettings {
  /** Leave the server configured but do not start it. */
  disabled?: boolean;
  /** How long starting the server and its `initialize` handshake may take (ms). */
  startupTimeoutMs?: number;
  /** How long one tool call may take (ms). */
  toolTimeoutMs?: number;
}

/** A server run as a child process, talking JSON-RPC over its stdin/stdout. */
export interface StdioServerConfig extends CommonSettings {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Working directory of the process, relative to the project root. */
  cwd?: string;
}

/** A server reached over HTTP: streamable HTTP (`http`) or the legacy SSE transport (`sse`). */
export interface RemoteServerConfig extends CommonSettings {
  type?: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
}

/** One `mcpServers` entry, in the shape `.mcp.json` files use across tools. */
export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** True for a server reached over HTTP (it has a `url`). */
export function isRemote(config: ServerConfig): config is RemoteServerConfig {
  return 'url' in config && typeof config.url === 'string';
}

/** The transport a server entry selects: an explicit `type`, else `http` for a `url`, else `stdio`. */
export function transportOf(config: ServerConfig): 'stdio' | 'http' | 'sse' {
  return config.type ?? (isRemote(config) ? 'http' : 'stdio');
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 15_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

const strings = { type: 'array', items: { type: 'string' } };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const common = {
  disabled: { type: 'boolean', description: 'Keep the entry but do not start the server' },
  startupTimeoutMs: { type: 'integer', minimum: 100, description: 'Time allowed for starting the server and its initialize handshake (ms)' },
  toolTimeoutMs: { type: 'integer', minimum: 100, description: 'Time allowed for one tool call (ms)' },
};

/**
 * One server entry. A `url` (or `type: http|sse`) makes it a remote server, anything else a
 * stdio server; `if`/`then` keeps the error messages about the branch the entry meant.
 */
export const serverSchema: JsonSchema = {
  type: 'object',
  if: { anyOf: [{ required: ['url'] }, { required: ['type'], properties: { type: { enum: ['http', 'sse'] } } }] },
  then: {
    additionalProperties: false,
    required: ['url'],
    properties: {
      type: { enum: ['http', 'sse'] },
      url: { type: 'string', pattern: '^(https?://|\\$\\{)', description: 'http(s) URL of the server' },
      headers: stringMap,
      ...common,
    },
  },
  else: {
    additionalProperties: false,
    required: ['command'],
    properties: {
      type: { enum: ['stdio'] },
      command: { type: 'string', minLength: 1 },
      args: strings,
      env: stringMap,
      cwd: { type: 'string', minLength: 1 },
      ...common,
    },
  },
};

/** `mcpServers`: server name → entry. */
export const serversSchema: JsonSchema = {
  type: 'object',
  propertyNames: { minLength: 1, maxLength: 64 },
  additionalProperties: serverSchema,
};

/** A project's `.mcp.json`. */
export const mcpJsonSchema: JsonSchema = {
  type: 'object',
  required: ['mcpServers'],
  properties: { mcpServers: serversSchema },
};
