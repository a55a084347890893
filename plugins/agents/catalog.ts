import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigError } from '../../core/index.js';
import { readAgentDirectory } from './agent-files.js';
import { READ_ONLY_TOOLS, type AgentType, type AgentsOptions } from './agent-type.js';

/** Every agent type the Task tool offers, by name, and what went wrong reading agent files. */
export interface AgentCatalog {
  types: Map<string, AgentType>;
  problems: ConfigError[];
  /** Ignored front matter keys, per file. */
  ignored: string[];
}

/** Where agent types come from besides the built-in one and the config. */
export interface CatalogSources {
  /** The user's agent files (`<config dir>/agents`). */
  userDir: string;
  /** The project's agent files (`.assistant/agents`). */
  projectDir: string;
  /** The file that set `agents/<name>` in the config. */
  configSource(name: string): string;
}

/** The built-in type: read-only research and review. */
export function generalType(): AgentType {
  return {
    name: 'general',
    description:
      'General-purpose, read-only: researches a question, finds where something is implemented, reviews files or surveys code, and reports what it found with paths and line numbers.',
    prompt: readFileSync(new URL('./general-prompt.txt', import.meta.url), 'utf8').trim(),
    source: 'built-in',
  };
}

/**
 * Builds the catalog. Later sources replace a type of the same name: built-in, the user's agent
 * files, the project's agent files, then the `agents` config key (where an entry for `general`
 * may also adjust single fields of it).
 */
export async function loadCatalog(options: AgentsOptions, sources: CatalogSources): Promise<AgentCatalog> {
  const types = new Map<string, AgentType>([['general', generalType()]]);
  const [user, project] = await Promise.all([readAgentDirectory(sources.userDir), readAgentDirectory(sources.projectDir)]);
  for (const type of [...user.types, ...project.types]) types.set(type.name, type);
  for (const [name, fields] of Object.entries(options)) {
    const base = types.get(name);
    const merged = { ...(fields.description && fields.prompt ? {} : base), ...fields, name, source: sources.configSource(name) };
    // The schema requires description and prompt for new names, so `merged` is complete here.
    types.set(name, merged as AgentType);
  }
  return { types, problems: [...user.problems, ...project.problems], ignored: [...user.ignored, ...project.ignored] };
}

/** The project's agent directory. */
export function projectAgentDir(projectRoot: string): string {
  return join(projectRoot, '.assistant', 'agents');
}

/** How the Task tool's description lists a type: name, description, and what it may use. */
export function describeType(type: AgentType): string {
  const tools = type.tools ?? READ_ONLY_TOOLS;
  const access = type.tools ? `tools: ${tools.join(', ') || 'none'}` : `tools: ${tools.join(', ')}; read-only`;
  return `- ${type.name}: ${type.description.replace(/\s+/g, ' ').trim()} (${access}${type.model && type.model !== 'inherit' ? `; model ${type.model}` : ''})`;
}
