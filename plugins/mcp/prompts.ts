import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { SlashCommand } from '../../core/index.js';
import type { McpConnection } from './connection.js';
import { qualifiedName } from './names.js';

/**
 * Reads a command line into prompt arguments: `name=value` words set arguments by name;
 * otherwise words fill the declared arguments in order, the last one taking the rest of the line.
 */
export function parsePromptArgs(text: string, prompt: Prompt): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const line = text.trim();
  if (!line || !declared.length) return {};
  const named = [...line.matchAll(/(\w[\w-]*)=("([^"]*)"|'([^']*)'|\S+)/g)];
  if (named.length && named.every((m) => declared.some((a) => a.name === m[1]))) {
    return Object.fromEntries(named.map((m) => [m[1]!, m[3] ?? m[4] ?? m[2]!]));
  }
  const words = line.split(/\s+/);
  const out: Record<string, string> = {};
  declared.forEach((argument, i) => {
    if (i >= words.length) return;
    out[argument.name] = i === declared.length - 1 ? words.slice(i).join(' ') : words[i]!;
  });
  return out;
}

/** The prompt's messages as one prompt for the model: text kept, resources inlined, other media noted. */
export function promptText(result: GetPromptResult): string {
  const parts: string[] = [];
  for (const message of result.messages) {
    const content = message.content;
    let text: string;
    if (content.type === 'text') text = content.text;
    else if (content.type === 'resource') {
      const resource = content.resource;
      text = 'text' in resource ? `<resource uri="${resource.uri}">\n${resource.text}\n</resource>` : `[binary resource ${resource.uri} not included]`;
    } else if (content.type === 'resource_link') text = `[resource ${content.uri}]`;
    else text = `[${content.type} not included]`;
    parts.push(message.role === 'assistant' ? `(assistant) ${text}` : text);
  }
  return parts.join('\n\n');
}

function usage(prompt: Prompt): string {
  return (prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
}

/**
 * `/mcp__<server>__<prompt> [args]`: fetches the prompt from the server and sends it as the next
 * prompt (through the UI's `submit`); outside the interactive UI the text is shown instead.
 */
export function promptCommand(connection: McpConnection, prompt: Prompt): SlashCommand {
  const name = qualifiedName(connection.name, prompt.name);
  return {
    name,
    description: `${(prompt.description ?? prompt.title ?? `prompt ${prompt.name}`).split('\n')[0]} (MCP ${connection.name})`,
    usage: usage(prompt) || undefined,
    async run(args, context) {
      const current = connection.prompts.find((p) => p.name === prompt.name);
      if (connection.status !== 'connected' || !current) return `/${name} is not available: ${connection.status === 'connected' ? `the server no longer offers "${prompt.name}"` : connection.unavailable()}`;
      const values = parsePromptArgs(args, current);
      const missing = (current.arguments ?? []).filter((a) => a.required && !values[a.name]);
      if (missing.length) return `/${name} needs ${missing.map((a) => a.name).join(', ')}: /${name} ${usage(current)}`;
      const text = promptText(await connection.getPrompt(prompt.name, values));
      const submit = context.ui?.submit as ((text: string) => void) | undefined;
      if (typeof submit !== 'function') return text;
      submit(text);
      return undefined;
    },
  };
}
