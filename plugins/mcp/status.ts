import { relative } from 'node:path';
import type { McpConnection } from './connection.js';

/** One server as `assistant mcp list` and `/mcp` show it. */
export interface ServerRow {
  name: string;
  transport: string;
  status: string;
  tools: number;
  prompts: number;
  source: string;
  error?: string;
  code?: string;
}

export function serverRow(connection: McpConnection, projectRoot: string): ServerRow {
  const file = connection.entry.file;
  const source = file.startsWith('/') ? relative(projectRoot, file) || file : file;
  return {
    name: connection.name,
    transport: connection.transportType,
    status: connection.status,
    tools: connection.tools.length,
    prompts: connection.prompts.length,
    source: source.startsWith('..') ? file : source,
    ...(connection.failure ? { error: connection.failure.message, code: connection.failure.code } : {}),
  };
}

/** A plain table: one server a line, then the reason for each failure. */
export function formatRows(rows: ServerRow[]): string {
  if (!rows.length) return 'No MCP servers are configured. Add one with: assistant mcp add <name> -- <command> [args...]';
  const table = [['name', 'transport', 'status', 'tools', 'source'], ...rows.map((r) => [r.name, r.transport, r.status, String(r.tools), r.source])];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
  for (const row of rows) if (row.error) lines.push(`${row.name}: ${row.code}: ${row.error}`);
  return lines.join('\n');
}
