import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import type { AssistantConfig, Kernel, OriginEvent, PermissionMode, ToolCallPart, ToolResultPart } from '../../dist/core/index.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const require = createRequire(import.meta.url);

/** The file a package's bin runs, resolved in node_modules (the servers run as `node <bin>`, never through npx). */
export function binOf(pkg: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : Object.values(bin)[0]!);
}

export const EVERYTHING = binOf('@modelcontextprotocol/server-everything');
export const FILESYSTEM = binOf('@modelcontextprotocol/server-filesystem');
export const FIXTURE = fileURLToPath(new URL('./fixtures/fixture-server.mjs', import.meta.url));

/** A stdio server entry that runs a script with this Node. */
export const nodeServer = (script: string, args: string[] = [], extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [script, ...args], ...extra });

/** A kernel in this process for a project whose config is `config`; headless unless told otherwise; events collected. */
export async function mcpKernel(
  config: Record<string, unknown>,
  options: { files?: Record<string, string>; headless?: boolean; flags?: AssistantConfig; dir?: string } = {},
): Promise<{ kernel: Kernel; dir: string; events: OriginEvent[] }> {
  const dir = options.dir ?? makeProject({ '.assistantrc': JSON.stringify(config, null, 2), ...options.files });
  const resolved = await loadConfig({ cwd: dir, env: isolatedEnv(), noUserConfig: true, flags: { persistence: { store: 'none' }, ...options.flags } });
  const kernel = await createKernel({ config: resolved, headless: options.headless ?? true });
  const events: OriginEvent[] = [];
  kernel.hooks.event.tap('test', (event) => void events.push(event));
  return { kernel, dir, events };
}

/** Marks the start of the first turn, when the plugin hands over notices queued during start-up. */
export const firstTurn = (kernel: Kernel) => kernel.hooks.turnStart.promise({ turn: 1, signal: new AbortController().signal });

let ids = 0;
/** Runs tool calls through the kernel's one pipeline. */
export async function call(kernel: Kernel, name: string, input: Record<string, unknown> = {}, mode: PermissionMode = 'bypass', signal: AbortSignal = new AbortController().signal): Promise<ToolResultPart> {
  const part: ToolCallPart = { type: 'tool_call', id: `call_${++ids}`, name, input };
  const [result] = await kernel.runToolCalls([part], { mode, signal, turn: 1 });
  return result!;
}

/** The text of a result. */
export const textOf = (result: ToolResultPart) => result.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');

/** The notices among the events. */
export const notices = (events: OriginEvent[]) => events.filter((e): e is Extract<OriginEvent, { type: 'notice' }> => e.type === 'notice');

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
