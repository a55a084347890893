import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { type AssistantConfig, type Kernel, type OriginEvent, type PermissionMode } from '../../dist/core/index.js';
import { createRunner, openSession, type AgentRunner, type SessionState } from '../../dist/core/kits/agent/index.js';
import { isolatedEnv, writeFiles } from '../support/project.js';
import { gitProject, type FakeLlm } from '../e2e/support.js';

export { sharedFakeLlm } from '../e2e/support.js';

/** A `hooks` section entry: one command, optionally behind a matcher. */
export function command(commandLine: string, extra: { matcher?: string; timeout?: number } = {}) {
  const { matcher, timeout } = extra;
  return { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command: commandLine, ...(timeout ? { timeout } : {}) }] };
}

/** An agent on a fresh git project whose .assistantrc has `hooks`, in this process, against the fake server. */
export interface HookedAgent {
  dir: string;
  kernel: Kernel;
  session: SessionState;
  runner: AgentRunner;
  events: OriginEvent[];
  /** The messages of the warning notices so far. */
  notices(): string[];
  /** The JSON lines a `{ cat; echo; } >> <file>` hook wrote: the events it read on stdin. */
  logged(file: string): Array<Record<string, any>>;
}

const open: Kernel[] = [];
afterEach(async () => {
  for (const kernel of open.splice(0)) await kernel.shutdown();
});

/**
 * Boots the real kernel (every built-in plugin) for a project with `hooks` in its .assistantrc and
 * `scripts` (path → shell script, made executable unless listed in `notExecutable`), and opens a
 * session in `mode` (default `bypass`, so the tool calls the tests make are not held by permission).
 */
export async function hookedAgent(
  fake: FakeLlm | undefined,
  hooks: object,
  options: { scripts?: Record<string, string>; files?: Record<string, string>; notExecutable?: string[]; mode?: PermissionMode; config?: AssistantConfig } = {},
): Promise<HookedAgent> {
  const dir = gitProject({ 'README.md': '# app\n', '.hooks/.keep': '', ...options.files, '.assistantrc': JSON.stringify({ hooks }, null, 2) });
  writeFiles(dir, options.scripts ?? {});
  for (const path of Object.keys(options.scripts ?? {})) if (!options.notExecutable?.includes(path)) chmodSync(join(dir, path), 0o755);
  const config = await loadConfig({
    cwd: dir,
    env: isolatedEnv(),
    noUserConfig: true,
    flags: { provider: { name: 'anthropic', ...(fake ? { baseURL: fake.anthropicBaseURL } : {}) }, persistence: { store: 'none' }, ...options.config },
  });
  const kernel = await createKernel({ config, headless: true, toolRuntime: { abortGraceMs: 200 } });
  open.push(kernel);
  const events: OriginEvent[] = [];
  kernel.hooks.event.tap('test-events', (event) => void events.push(event));
  await kernel.start();
  const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: options.mode ?? 'bypass' });
  kernel.session = session;
  return {
    dir,
    kernel,
    session,
    runner: createRunner(kernel, session),
    events,
    notices: () => events.flatMap((e) => (e.type === 'notice' && e.level !== 'info' ? [e.message] : [])),
    logged: (file) => {
      const path = join(dir, file);
      if (!existsSync(path)) return [];
      return readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, any>);
    },
  };
}

/** A hook command that appends the event it reads on stdin to `file` (one JSON line per event). */
export const logTo = (file: string) => `{ cat; echo; } >> ${file}`;

/** True while `pid` is a live (not zombie) process. */
export function alive(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
