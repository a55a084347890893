import { AssistantError, compileSchema, describeSchemaErrors, type Kernel, type Logger } from '../../core/index.js';
import { MCP_JSON, listServers, readMcpJson, type ServerList } from './config.js';
import { editServers, projectConfigFile } from './config-file.js';
import { McpConnection } from './connection.js';
import { serverNameProblem } from './names.js';
import { serverSchema, type ServerConfig } from './schema.js';
import { formatRows, serverRow } from './status.js';
import { join } from 'node:path';
import { MCP_ERRORS } from './errors.js';

/** What the `mcp` subcommands need. */
export interface CliDeps {
  kernel: Kernel;
  logger: Logger;
  version: string;
  servers: () => ServerList;
}

/** `assistant mcp list`: connects to each server (within its start-up deadline) and shows what it offers. */
export async function list(deps: CliDeps, json: boolean): Promise<number> {
  const { kernel } = deps;
  const { servers, problems } = deps.servers();
  const connections = servers.map((entry) => new McpConnection(entry, { projectRoot: kernel.projectRoot, env: process.env, logger: deps.logger, version: deps.version }));
  try {
    await Promise.all(connections.map((c) => c.connect()));
    const rows = connections.map((c) => serverRow(c, kernel.projectRoot));
    if (json) process.stdout.write(JSON.stringify({ servers: rows, problems }, null, 2) + '\n');
    else {
      process.stdout.write(formatRows(rows) + '\n');
      for (const problem of problems) process.stderr.write(`ASSISTANT_MCP_CONFIG_INVALID: ${problem}\n`);
    }
    return 0;
  } finally {
    await Promise.all(connections.map((c) => c.close()));
  }
}

function pairs(values: string[] | undefined, separator: RegExp, what: string, example: string): Record<string, string> | undefined {
  if (!values?.length) return undefined;
  const out: Record<string, string> = {};
  for (const value of values) {
    const match = separator.exec(value);
    if (!match || match.index === 0)
      throw new AssistantError('ASSISTANT_USAGE', `${what} expects ${example} (got "${value}"); put the server's command after --, e.g. assistant mcp add name -e KEY=VALUE -- npx server`);
    out[value.slice(0, match.index).trim()] = value.slice(match.index + match[0].length);
  }
  return out;
}

/** The entry `mcp add` writes, from its flags and words. */
export function entryFromFlags(target: string[], options: { transport?: string; env?: string[]; header?: string[] }): ServerConfig {
  const transport = options.transport ?? (/^https?:\/\//.test(target[0] ?? '') ? 'http' : 'stdio');
  if (!['stdio', 'http', 'sse'].includes(transport)) throw new AssistantError('ASSISTANT_USAGE', `--transport must be stdio, http or sse (got "${transport}")`);
  if (transport === 'stdio') {
    if (options.header?.length) throw new AssistantError('ASSISTANT_USAGE', '--header is for http and sse servers; a stdio server takes --env');
    const [command, ...args] = target;
    if (!command) throw new AssistantError('ASSISTANT_USAGE', 'no command: assistant mcp add <name> -- <command> [args...]');
    const env = pairs(options.env, /=/, '--env', 'KEY=VALUE');
    return { command, ...(args.length ? { args } : {}), ...(env ? { env } : {}) };
  }
  if (options.env?.length) throw new AssistantError('ASSISTANT_USAGE', '--env is for stdio servers; an http or sse server takes --header');
  if (target.length !== 1) throw new AssistantError('ASSISTANT_USAGE', `an ${transport} server needs exactly one URL: assistant mcp add --transport ${transport} <name> <url>`);
  const headers = pairs(options.header, /:\s*/, '--header', '"Name: value"');
  return { type: transport as 'http' | 'sse', url: target[0]!, ...(headers ? { headers } : {}) };
}

export async function add(deps: CliDeps, name: string, target: string[], options: Record<string, unknown>): Promise<number> {
  const badName = serverNameProblem(name);
  if (badName) throw new AssistantError(MCP_ERRORS.ASSISTANT_MCP_SERVER_NAME_INVALID, badName);
  const entry = entryFromFlags(target, options as { transport?: string; env?: string[]; header?: string[] });
  const validate = compileSchema(serverSchema);
  if (!validate(structuredClone(entry)))
    throw new AssistantError('ASSISTANT_USAGE', `the server entry is not valid: ${describeSchemaErrors(validate.errors, entry, `/mcpServers/${name}`).join('; ')}`);
  const { kernel } = deps;
  const file = projectConfigFile(kernel.resolvedConfig.projectFile, kernel.projectRoot);
  await editServers(file, (servers) => {
    if (servers && name in servers)
      throw new AssistantError(MCP_ERRORS.ASSISTANT_MCP_SERVER_EXISTS, `${file} already has an MCP server "${name}"; remove it first (assistant mcp remove ${name})`);
    return { ...servers, [name]: entry };
  });
  process.stdout.write(`added MCP server "${name}" to ${file}\n`);
  // A project's servers start only once the project is trusted with them (the loader checks).
  if (kernel.resolvedConfig.trust) process.stderr.write(`it starts once you trust the project's settings as they are now: assistant trust ${kernel.projectRoot}\n`);
  return 0;
}

export async function remove(deps: CliDeps, name: string): Promise<number> {
  const { kernel } = deps;
  const file = projectConfigFile(kernel.resolvedConfig.projectFile, kernel.projectRoot);
  const drop = (servers: Record<string, unknown> | undefined) => {
    if (!servers || !(name in servers)) return false;
    const { [name]: _gone, ...rest } = servers;
    return rest;
  };
  if (kernel.resolvedConfig.projectFile && (await editServers(file, drop))) {
    process.stdout.write(`removed MCP server "${name}" from ${file}\n`);
    return 0;
  }
  const shared = join(kernel.projectRoot, MCP_JSON);
  if (readMcpJson(kernel.projectRoot).entries.some((e) => e.name === name) && (await editServers(shared, drop))) {
    process.stdout.write(`removed MCP server "${name}" from ${shared}\n`);
    return 0;
  }
  const elsewhere = deps.servers().servers.find((s) => s.name === name);
  throw new AssistantError(
    MCP_ERRORS.ASSISTANT_MCP_SERVER_UNKNOWN,
    elsewhere
      ? `the MCP server "${name}" is not in the project's config but in ${elsewhere.file}; edit that file to remove it`
      : `there is no MCP server "${name}"${deps.servers().servers.length ? ` (configured: ${deps.servers().servers.map((s) => s.name).join(', ')})` : ''}`,
  );
}
