import type { ImagePart, TextPart, UserMessage } from '../../core/index.js';
import type { McpConnection } from './connection.js';
import { resourcePart } from './results.js';

/** `@server:uri` after a space or at the start; the server part is a name as it appears in tool names. */
const MENTION = /(?:^|\s)@([A-Za-z0-9_-]+):(\S+)/g;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** The `@server:uri` mentions in a text, in order, without duplicates. */
export function resourceMentions(text: string): Array<{ server: string; uri: string }> {
  const seen = new Set<string>();
  const out: Array<{ server: string; uri: string }> = [];
  for (const m of text.matchAll(MENTION)) {
    const uri = m[2]!.replace(TRAILING, '');
    const key = `${m[1]}\0${uri}`;
    if (!uri || seen.has(key)) continue;
    seen.add(key);
    out.push({ server: m[1]!, uri });
  }
  return out;
}

/**
 * Attaches the resources a prompt mentions as `@server:uri`: each is read from its server and
 * added after the prompt. A mention of a server that is not known is left as typed (it may be an
 * email or a handle); one that cannot be read is reported through `problem` and left as typed.
 */
export async function attachResources(
  message: UserMessage,
  text: string,
  serverFor: (name: string) => McpConnection | undefined,
  problem: (message: string) => void,
): Promise<UserMessage> {
  const parts: Array<TextPart | ImagePart> = [];
  for (const { server, uri } of resourceMentions(text)) {
    const connection = serverFor(server);
    if (!connection) continue;
    if (!connection.hasResources) {
      problem(`@${server}:${uri} was not attached: ${connection.status === 'connected' ? `the MCP server "${connection.name}" offers no resources` : connection.unavailable()}`);
      continue;
    }
    try {
      const result = await connection.readResource(uri);
      parts.push(...result.contents.map(resourcePart));
    } catch (error) {
      problem(`@${server}:${uri} was not attached: ${(error as Error).message}`);
    }
  }
  if (!parts.length) return message;
  const intro: TextPart = { type: 'text', text: 'Resources the user attached with @ mentions (from MCP servers):' };
  return { ...message, content: [...message.content, intro, ...parts] };
}
