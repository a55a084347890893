import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSchema, describeSchemaErrors, type Kernel } from '../../core/index.js';
import { sha256 } from '../../core/kits/trust/index.js';
import { serverNameProblem } from './names.js';
import { serverSchema, type ServerConfig } from './schema.js';

/** The project file other MCP clients share; read beside `.assistantrc`. */
export const MCP_JSON = '.mcp.json';

/** A configured server and where it was configured. */
export interface ServerEntry {
  /** The name as configured (the key under `mcpServers`). */
  name: string;
  config: ServerConfig;
  /** The file (or `flags` / `defaults`) that set it. */
  file: string;
  /** JSON pointer of the entry in that file. */
  pointer: string;
  /** Why the entry cannot be used (an invalid `.mcp.json` entry, a bad name), naming the file and JSON path. */
  problem?: string;
  /** The error code of the problem (ASSISTANT_MCP_CONFIG_INVALID when absent). */
  problemCode?: 'ASSISTANT_MCP_CONFIG_INVALID' | 'ASSISTANT_MCP_SERVER_NAME_INVALID';
}

function untrustedNotice(kernel: Kernel, entries: ServerEntry[]): string {
  return `${join(kernel.projectRoot, MCP_JSON)}: its servers (${entries.map((e) => e.name).join(', ')}) were not started: the project is not trusted, or the file changed since it was; run \`assistant trust\` if you wrote it`;
}

/** Refuses an entry whose name could pass for another server's in tool names (`github__evil`). */
function checkName(entry: ServerEntry): ServerEntry {
  const problem = serverNameProblem(entry.name);
  return problem ? { ...entry, problem: `${entry.file}: ${entry.pointer}: ${problem}; the server is not started`, problemCode: 'ASSISTANT_MCP_SERVER_NAME_INVALID' } : entry;
}

/** What the configuration says about MCP servers. */
export interface ServerList {
  servers: ServerEntry[];
  /** Problems with `.mcp.json` as a whole (unreadable, not JSON, wrong shape). */
  problems: string[];
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The file that set `mcpServers.<name>` in the merged configuration. */
function sourceOf(kernel: Kernel, name: string): string {
  const { sources, projectFile } = kernel.resolvedConfig;
  return sources[`/mcpServers/${escapeKey(name)}`] ?? sources['/mcpServers'] ?? projectFile ?? 'configuration';
}

/** Reads `.mcp.json` from the project root. Its entries are checked one by one: a bad one is reported, not fatal, since the file is shared with other tools. */
export function readMcpJson(projectRoot: string): { entries: ServerEntry[]; problems: string[]; digest?: string } {
  const file = join(projectRoot, MCP_JSON);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], problems: [] };
    return { entries: [], problems: [`${file}: cannot be read: ${(error as Error).message}`] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { entries: [], problems: [`${file}: is not valid JSON: ${(error as Error).message}`] };
  }
  const servers = (data as { mcpServers?: unknown } | null)?.mcpServers;
  if (!data || typeof data !== 'object' || Array.isArray(data) || !servers || typeof servers !== 'object' || Array.isArray(servers))
    return { entries: [], problems: [`${file}: /mcpServers: must be an object of server entries ({"mcpServers": {"name": {"command": "..."}}})`] };
  const validate = compileSchema(serverSchema);
  const entries: ServerEntry[] = [];
  for (const [name, value] of Object.entries(servers as Record<string, unknown>)) {
    const pointer = `/mcpServers/${escapeKey(name)}`;
    const config = structuredClone(value);
    const entry: ServerEntry = { name, config: config as ServerConfig, file, pointer };
    if (!validate(config)) entry.problem = `${file}: ${describeSchemaErrors(validate.errors, config, pointer).join('; ')}`;
    entries.push(entry);
  }
  return { entries, problems: [], digest: sha256(text) };
}

/**
 * `.mcp.json` starts programs: its servers are used only when the user trusted the project with
 * this very content (the loader records its digest). Embedders that did not check trust are not held back.
 */
function mcpJsonTrusted(kernel: Kernel, digest: string | undefined): boolean {
  const trust = kernel.resolvedConfig.trust;
  return !trust || (digest !== undefined && trust.files[MCP_JSON] === digest);
}

/**
 * Every configured server: `mcpServers` from the configuration layers (already validated by the
 * plugin's schema), then the project's `.mcp.json` for names the configuration does not define.
 */
export function listServers(kernel: Kernel, fromConfig: Record<string, ServerConfig>): ServerList {
  const servers: ServerEntry[] = Object.entries(fromConfig).map(([name, config]) => ({
    name,
    config,
    file: sourceOf(kernel, name),
    pointer: `/mcpServers/${escapeKey(name)}`,
  }));
  const shared = readMcpJson(kernel.projectRoot);
  const taken = new Set(servers.map((s) => s.name));
  const trusted = mcpJsonTrusted(kernel, shared.digest);
  for (const entry of shared.entries) if (!taken.has(entry.name) && trusted) servers.push(entry);
  const untrusted = !trusted && shared.entries.length ? [untrustedNotice(kernel, shared.entries)] : [];
  return { servers: servers.map(checkName), problems: [...shared.problems, ...untrusted] };
}
