import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import type { AssistantConfig, Kernel } from '../../dist/core/index.js';
import { isolatedEnv, makeProject, writeFiles } from '../support/project.js';
import { CLI, type CliResult } from '../support/cli.js';

const FIXTURE = new URL('./fixtures/scripted-provider.mjs', import.meta.url).pathname;

/** Options of the scripted provider fixture (test/sessions/fixtures/scripted-provider.mjs). */
export interface ScriptOptions {
  /** Model turns per prompt: turns-1 `Note` tool calls, then a final answer. */
  turns?: number;
  /** Pause between stream events and in the tool, to widen kill windows. */
  delayMs?: number;
  /** File the fixture appends `turn N` / `done N` to once a turn is durably persisted. */
  markers?: string;
  /** `Note` numbers whose permission is denied. */
  deny?: number[];
  /** The `Note` number that returns an error result. */
  failNote?: number;
}

/** Writes `.assistantrc` selecting the scripted provider, with extra config and plugins, into `dir`. */
export function writeScriptedConfig(dir: string, script: ScriptOptions = {}, config: Record<string, unknown> = {}): void {
  copyFileSync(FIXTURE, join(dir, 'scripted-provider.mjs'));
  const { plugins = [], ...rest } = config as { plugins?: unknown[] };
  const rc = { provider: { name: 'scripted' }, ...rest, plugins: [['./scripted-provider.mjs', script], ...plugins] };
  writeFiles(dir, { '.assistantrc': JSON.stringify(rc, null, 2) });
}

/** A fresh project whose provider is the scripted fixture plugin. */
export function scriptedProject(script: ScriptOptions = {}, config: Record<string, unknown> = {}): string {
  const dir = makeProject();
  writeScriptedConfig(dir, script, config);
  return dir;
}

/** A kernel for `dir` whose JSONL store lives under `dataDir` (in-process tests cannot change $HOME). */
export async function kernelFor(dir: string, dataDir: string, flags: AssistantConfig = {}): Promise<Kernel> {
  const env = isolatedEnv();
  const persistence = { ...(flags.persistence ?? {}), jsonl: { dir: dataDir } };
  const config = await loadConfig({ cwd: dir, env, flags: { ...flags, persistence } });
  return createKernel({ config, headless: true });
}

/** A CLI run in the background: its process and a promise of how it ended. */
export function startCli(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): { child: ChildProcess; done: Promise<CliResult> } {
  // The scripted test project loads its own provider plugin: the user trusts it.
  const child = spawn(process.execPath, [CLI, '--trust-project', ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

/** Polls `check` until it returns a value (or fails after `timeoutMs`). */
export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
