import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel.js';
import type { AssistantConfig, Kernel } from '../../dist/core/index.js';
import { isolatedEnv, makeProject, writeFiles } from '../support/project.js';

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
