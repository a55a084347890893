import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import {
  type AssistantConfig,
  type Kernel,
  type OriginEvent,
  type PermissionMode,
  type Plugin,
  type ToolMessage,
  type ToolResultPart,
} from '../../dist/core/index.js';
import { createRunner, openSession, type AgentRunner } from '../../dist/core/kits/agent/index.js';
import { gitProject } from '../e2e/support.js';
import { isolatedEnv, tempDir } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';

export type { FakeLlm };

/**
 * The user's global agent files are read from the process's config dir: point it at an empty temp
 * dir so a developer's own agents never leak into the tests. Returns the agents dir there.
 */
export function isolateUserConfig(): string {
  const dir = tempDir('assistant-user-config-');
  process.env.ASSISTANT_CONFIG_DIR = dir;
  return join(dir, 'agents');
}

/** The fake LLM server of a test file, and the user's agents dir (isolated, empty at first). */
export interface FakeForFile {
  readonly fake: FakeLlm;
  readonly userAgents: string;
  /** Swaps the script and clears the request log. */
  script(fixture: object): void;
}

/** Starts one fake LLM server for the test file (and isolates the user's config); closes it after. */
export function useFakeLlm(): FakeForFile {
  let fake: FakeLlm | undefined;
  let userAgents = '';
  beforeAll(async () => {
    userAgents = isolateUserConfig();
    fake = await startFakeLlm({ fixture: { turns: [] } });
  });
  afterAll(() => fake?.close());
  return {
    get fake() {
      return fake!;
    },
    get userAgents() {
      return userAgents;
    },
    script(fixture) {
      fake!.setFixture(fixture);
      fake!.reset();
    },
  };
}

/** A kernel on a fresh git project, talking to the fake server, with a session open in `mode`. */
export interface AgentSession {
  dir: string;
  kernel: Kernel;
  runner: AgentRunner;
  events: OriginEvent[];
}

export async function agentSession(
  fake: FakeLlm,
  files: Record<string, string>,
  options: { config?: AssistantConfig; mode?: PermissionMode; plugins?: Plugin[] } = {},
): Promise<AgentSession> {
  const dir = gitProject(files);
  const config = await loadConfig({
    cwd: dir,
    env: isolatedEnv(),
    noUserConfig: true,
    flags: { provider: { name: 'anthropic', baseURL: fake.anthropicBaseURL }, persistence: { store: 'none' }, ...options.config },
  });
  const kernel = await createKernel({
    config,
    headless: true,
    extraPlugins: (options.plugins ?? []).map((plugin) => ({ plugin, options: {}, source: 'test', listedIn: 'test' })),
  });
  const events: OriginEvent[] = [];
  kernel.hooks.event.tap('test-events', (event) => void events.push(event));
  await kernel.start();
  const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: options.mode ?? 'default' });
  kernel.session = session;
  return { dir, kernel, runner: createRunner(kernel, session), events };
}

/** The result the main agent got for one of its tool calls. */
export function resultFor(runner: AgentRunner, callId: string): ToolResultPart {
  for (const m of runner.session.messages)
    if (m.role === 'tool') for (const r of (m as ToolMessage).content) if (r.toolCallId === callId) return r;
  throw new Error(`no result for ${callId}`);
}

/** The text of a result. */
export function textOf(result: ToolResultPart): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Names of the tools a request offered. */
export function toolsOffered(request: { body: any }): string[] {
  return (request.body.tools ?? []).map((t: { name: string }) => t.name).sort();
}

/** The system prompt a request sent, as one string. */
export function systemOf(request: { body: any }): string {
  const system = request.body.system;
  return typeof system === 'string' ? system : (system ?? []).map((b: { text: string }) => b.text).join('\n');
}

/** A sub-agent's first request: the one whose first user message is its task. */
export function firstRequestOf(fake: FakeLlm, task: string): FakeLlm['requests'][number] {
  const found = fake.requests.find((r) => {
    const first = r.body?.messages?.[0];
    const text = typeof first?.content === 'string' ? first.content : (first?.content ?? []).map((b: { text?: string }) => b.text ?? '').join('');
    return text.includes(task);
  });
  if (!found) throw new Error(`no request for the task "${task}"`);
  return found;
}
