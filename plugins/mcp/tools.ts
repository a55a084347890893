import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, type ErrorCode, type JsonSchema, type ToolDefinition } from '../../core/index.js';
import type { McpConnection } from './connection.js';
import { toToolResult } from './results.js';

/** Longest tool description passed on; some servers ship whole manuals. */
const MAX_DESCRIPTION = 4096;

/** The tool's input schema as the model and our validator take it: an object schema without a `$schema` dialect ajv may not know. */
export function inputSchemaOf(tool: Tool): JsonSchema {
  const { $schema: _dialect, ...schema } = (tool.inputSchema ?? {}) as JsonSchema;
  return { ...schema, type: 'object' };
}

function describe(tool: Tool, server: string): string {
  const text = (tool.description ?? '').trim() || tool.title || `The ${tool.name} tool of the MCP server "${server}".`;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

function preview(input: Record<string, unknown>): string {
  const first = Object.values(input).find((v) => typeof v === 'string' || typeof v === 'number');
  const text = first === undefined ? JSON.stringify(input) : String(first);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Tools that can only run as MCP tasks (`execution.taskSupport: "required"`) cannot be called plainly. */
export function callable(tool: Tool): boolean {
  return (tool as { execution?: { taskSupport?: string } }).execution?.taskSupport !== 'required';
}

/**
 * The definition of one MCP tool under its qualified name: a main-thread handler (the connection
 * lives in the kernel), risk category `other` (the permission engine asks by default; rules like
 * `mcp__github__*` allow), and a lock on the server itself.
 */
export function toolDefinition(connection: McpConnection, tool: Tool, name: string): ToolDefinition {
  const server = connection.name;
  // An MCP call touches the server's own world (an API, a database, a browser), which file locks
  // cannot describe, and never a file lock of ours. So it locks one resource per server: calls
  // to one server keep the model's order (many servers are not safe under concurrent calls),
  // while calls the server marks read-only share it, and nothing waits on file tools.
  const resource = `@mcp:${server}`;
  const readOnly = tool.annotations?.readOnlyHint === true;
  return {
    name,
    description: describe(tool, server),
    inputSchema: inputSchemaOf(tool),
    access: () => (readOnly ? { reads: [resource], writes: [] } : { reads: [], writes: [resource] }),
    risk: { category: 'other' },
    timeoutMs: connection.toolTimeoutMs,
    summarize: preview,
    plugin: 'mcp',
    async handler(input, context) {
      try {
        return toToolResult(await connection.callTool(tool.name, input, context.signal), server, tool.name);
      } catch (error) {
        const code = (error as { code?: ErrorCode }).code;
        // A stop (timeout, Ctrl+C) is reported by the runtime, which knows which it was.
        if (context.signal.aborted || !code) throw error;
        return errorResult(code, `${name} failed: ${(error as Error).message}`, { server, tool: tool.name });
      }
    },
  };
}
