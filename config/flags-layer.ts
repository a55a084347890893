import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AssistantError } from '../core/kernel/errors.js';
import { realAddedDirectories } from '../core/kits/fs/index.js';
import type { AssistantConfig } from '../core/types/config.js';
import type { PermissionMode } from '../core/types/permission.js';

/** Command-line flags that set configuration values: the highest layer, over every file. */
export interface ConfigFlags {
  /** `--model`: provider.model. */
  model?: string;
  /** `--provider`: provider.name. */
  provider?: string;
  /** `--permission-mode`: permissions.mode. */
  permissionMode?: PermissionMode;
  /** Permission rules from --allowed-tools / --disallowed-tools. */
  allowedTools?: string[];
  disallowedTools?: string[];
  /** `--record`: keep what replay needs with the session. */
  record?: boolean;
  /** `--system-prompt`: systemPrompt.instructions (`@file` reads a file). */
  systemPrompt?: string;
  /** `--append-system-prompt`: systemPrompt.append (`@file` reads a file). */
  appendSystemPrompt?: string;
  /** `--add-dir`: permissions.additionalDirectories (relative to the working directory). */
  addDir?: string[];
}

/** A prompt flag's text: `@path` reads the file (relative to `cwd`), anything else is the text itself. */
function promptText(flag: string, value: string, cwd: string): string {
  if (!value.startsWith('@')) return value;
  const file = resolve(cwd, value.slice(1));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new AssistantError('ASSISTANT_USAGE', `${flag} ${value}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error}); give the text itself, or @ and a readable file`);
  }
  if (!text.trim()) throw new AssistantError('ASSISTANT_USAGE', `${flag} ${value}: ${file} is empty`);
  return text.trim();
}

/** `--add-dir` folders, checked now so a typo is a usage error (exit 2) before anything starts. */
function checkedDirs(dirs: string[]): string[] {
  try {
    realAddedDirectories(dirs, undefined, '--add-dir');
  } catch (error) {
    throw new AssistantError('ASSISTANT_USAGE', (error as Error).message.replace('permissions.additionalDirectories (from --add-dir)', '--add-dir'));
  }
  return dirs;
}

/** Turns CLI flags into the highest config layer; `cwd` is where relative paths in them start. */
export function flagsLayer(flags: ConfigFlags, cwd = process.cwd()): AssistantConfig {
  const layer: AssistantConfig = {};
  if (flags.provider || flags.model) layer.provider = { ...(flags.provider ? { name: flags.provider } : {}), ...(flags.model ? { model: flags.model } : {}) };
  const permissions: NonNullable<AssistantConfig['permissions']> = {};
  if (flags.permissionMode) permissions.mode = flags.permissionMode;
  if (flags.allowedTools?.length) permissions.allow = flags.allowedTools;
  if (flags.disallowedTools?.length) permissions.deny = flags.disallowedTools;
  if (flags.addDir?.length) permissions.additionalDirectories = checkedDirs(flags.addDir.map((dir) => resolve(cwd, dir)));
  if (Object.keys(permissions).length) layer.permissions = permissions;
  if (flags.record) layer.persistence = { record: true };
  const systemPrompt: Record<string, string> = {};
  if (flags.systemPrompt !== undefined) systemPrompt.instructions = promptText('--system-prompt', flags.systemPrompt, cwd);
  if (flags.appendSystemPrompt !== undefined) systemPrompt.append = promptText('--append-system-prompt', flags.appendSystemPrompt, cwd);
  if (Object.keys(systemPrompt).length) layer.systemPrompt = systemPrompt;
  return layer;
}

/** Splits "Bash(npm test),Edit" (the value of --allowed-tools) on commas outside parentheses and appends to `previous`. */
export function collectRules(value: string, previous: string[]): string[] {
  const out = [...previous];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
