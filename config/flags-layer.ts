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
}

/** Turns CLI flags into the highest config layer. */
export function flagsLayer(flags: ConfigFlags): AssistantConfig {
  const layer: AssistantConfig = {};
  if (flags.provider || flags.model) layer.provider = { ...(flags.provider ? { name: flags.provider } : {}), ...(flags.model ? { model: flags.model } : {}) };
  const permissions: NonNullable<AssistantConfig['permissions']> = {};
  if (flags.permissionMode) permissions.mode = flags.permissionMode;
  if (flags.allowedTools?.length) permissions.allow = flags.allowedTools;
  if (flags.disallowedTools?.length) permissions.deny = flags.disallowedTools;
  if (Object.keys(permissions).length) layer.permissions = permissions;
  if (flags.record) layer.persistence = { record: true };
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
