import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Stage, type Kernel, type Logger, type PermissionMode } from '../../../core/index.js';
import { answerApprovals, APPROVAL_FORM, type Asker } from './approval.js';
import { offeredTools, toMcpResult } from './offered.js';

/** How long a person has to answer an approval before it counts as a no. */
const ELICIT_TIMEOUT_MS = 10 * 60_000;

/** What `serveTools` runs on. */
export interface ServeOptions {
  /** The kernel whose tools are served: started, not headless (approvals reach the `approval` hook). */
  kernel: Kernel;
  /** The permission mode every call is judged in. */
  mode: PermissionMode;
  logger: Logger;
  version: string;
}

/**
 * Serves the kernel's tools over MCP on stdin/stdout until the client goes away. Every call takes
 * the kernel's one pipeline (validation, permission layers, approval, sandbox, lock scheduler);
 * an `ask` goes to the client's user through elicitation, or is denied with the rule to add.
 */
export async function serveTools({ kernel, mode, logger, version }: ServeOptions): Promise<void> {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');

  const server = new Server({ name: 'assistant', version }, { capabilities: { tools: {} } });
  const asker: Asker = {
    canElicit: () => Boolean(server.getClientCapabilities()?.elicitation),
    // A person answers: far longer than the SDK's 60 s default for a request.
    elicit: (message) => server.elicitInput({ mode: 'form', message, requestedSchema: APPROVAL_FORM as never }, { timeout: ELICIT_TIMEOUT_MS }),
  };
  kernel.hooks.approval.tapPromise({ name: 'mcp-serve', stage: Stage.INTERACTIVE }, (items) => answerApprovals(asker, items));

  const tools = offeredTools(kernel);
  const names = new Set(tools.map((t) => t.name));
  let turn = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: input = {} } = request.params;
    // Only what tools/list offered runs: a hidden tool (a sub-agent, another server's) is unknown here.
    if (!names.has(name)) return { content: [{ type: 'text', text: `unknown tool "${name}"; tools/list says which tools this server offers` }], isError: true };
    const [result] = await kernel.runToolCalls([{ type: 'tool_call', id: `mcp_${randomUUID()}`, name, input: input as Record<string, unknown> }], {
      mode,
      signal: extra.signal,
      turn: ++turn,
    });
    return toMcpResult(result!);
  });

  // The protocol owns stdout: anything else a plugin prints goes to stderr instead of corrupting it.
  const protocolOut = createWriteStream('', { fd: 1, autoClose: false });
  const write = process.stdout.write.bind(process.stderr) as typeof process.stdout.write;
  const originalWrite = process.stdout.write;
  process.stdout.write = write;
  const transport = new StdioServerTransport(process.stdin, protocolOut as unknown as NodeJS.WriteStream);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  try {
    await server.connect(transport);
    logger.info(`serving ${tools.length} tools over MCP (mode ${mode})`);
    await closed;
  } finally {
    await server.close().catch(() => undefined);
    process.stdout.write = originalWrite;
    protocolOut.end();
  }
}
