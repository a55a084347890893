import { parseMcpToolName, type Kernel, type ToolDefinition, type ToolResultPart } from '../../../core/index.js';

/** A tool as `tools/list` offers it. */
export interface OfferedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

/**
 * Whether a registered tool is offered to MCP clients. Left out: other MCP servers' tools (no
 * proxying, no loops), tools that change only the agent's own state (its plan), and tools that start
 * agents (they need a model and a session this server does not have).
 */
export function offered(definition: ToolDefinition<any>): boolean {
  if (definition.name.startsWith('mcp__') || parseMcpToolName(definition.name)) return false;
  if (definition.risk.category === 'state') return false;
  return definition.plugin !== 'agents';
}

/** The offered tools, as a model of this kernel would see them (`toolDefinition` applied). */
export function offeredTools(kernel: Kernel): OfferedTool[] {
  return kernel.tools
    .list()
    .filter(offered)
    .map((definition) => {
      const spec = kernel.hooks.toolDefinition.call({ name: definition.name, description: definition.description, inputSchema: definition.inputSchema }, definition);
      const category = definition.risk.category;
      return {
        name: spec.name,
        description: spec.description,
        inputSchema: { type: 'object', ...(spec.inputSchema as Record<string, unknown>) },
        annotations: { readOnlyHint: category === 'read', destructiveHint: category === 'edit' || category === 'execute', openWorldHint: category === 'network' },
      };
    });
}

type McpContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A tool result as MCP content; a failed call (a denial included) is `isError`, never a protocol error. */
export function toMcpResult(result: ToolResultPart): { content: McpContent[]; isError: boolean } {
  const content: McpContent[] = result.content.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image', data: part.data, mimeType: part.mediaType },
  );
  return { content: content.length ? content : [{ type: 'text', text: '' }], isError: Boolean(result.isError) };
}
