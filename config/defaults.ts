import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssistantConfig } from '../core/types/config.js';
import type { ConfigLayer } from './layers.js';

/**
 * The default preset: the built-in plugins (loaded by path, through the same loader as any
 * third-party package) and the default values. Every built-in can be disabled with
 * `["<name>", false]` or replaced by a plugin of the same name.
 */
export const DEFAULT_PLUGINS: string[] = [
  'system-prompt',
  'provider-anthropic',
  'provider-openai',
  'memory-files',
  'project-map',
  'project-init',
  'context-compaction',
  'context-rolling',
  'context-static',
  'context-commands',
  'session-commands',
  'hand-off',
  'diagnostics',
  'ui-terminal',
  'store-jsonl',
  'store-redis',
  'audit-log',
  'metrics',
  'telemetry-otlp',
  'replay',
  'checkpoints',
  'tools-fs',
  'tool-bash',
  'tool-todo',
  'tool-webfetch',
  'tool-websearch',
  'mcp',
  'agents',
  'permissions',
  'permission-guard',
  'permission-rules',
  'permission-mode',
  'permission-classifier',
  'permission-grants',
  'permission-ask',
  'hooks-shell',
  'surface-serve',
  'surface-acp',
];

/** Built-ins whose folder is not their name: the permission layers ship inside the permissions package. */
const BUILTIN_FOLDERS: Record<string, string> = Object.fromEntries(
  ['guard', 'rules', 'mode', 'classifier', 'grants', 'ask'].map((layer) => [`permission-${layer}`, `permissions/${layer}`]),
);

/** Default values for the core keys. */
export const DEFAULT_VALUES: AssistantConfig = {
  provider: { name: 'anthropic' },
  permissions: { mode: 'default' },
  context: { strategy: 'compaction' },
  persistence: { store: 'jsonl' },
  limits: { maxTurns: 100, maxToolFailures: 3, repeatedCallLimit: 3 },
};

/**
 * Published model prices (US dollars per million tokens), shipped as data so they can be updated
 * without a release: a `pricing` key in any config layer overrides or adds entries.
 */
export function defaultPricing(): NonNullable<AssistantConfig['pricing']> {
  return JSON.parse(readFileSync(new URL('./pricing.json', import.meta.url), 'utf8')) as NonNullable<AssistantConfig['pricing']>;
}

/** The lowest configuration layer. */
export function defaultLayer(): ConfigLayer {
  return {
    values: { ...structuredClone(DEFAULT_VALUES), pricing: defaultPricing(), plugins: DEFAULT_PLUGINS.map((name) => `./${BUILTIN_FOLDERS[name] ?? name}/index.js`) },
    source: 'defaults',
    // Built-in plugin paths are relative to the compiled plugins folder, and name the file: resolving
    // a folder costs each plugin several stats (foo, foo.js, foo.mjs, foo.cjs, foo/package.json...).
    baseDir: fileURLToPath(new URL('../plugins/', import.meta.url)),
  };
}

/** Directory of this module (for tools that need the package root). */
export const configDir = dirname(fileURLToPath(import.meta.url));
