import { fileURLToPath } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';

/** A prompt from the editor: its text, and the slash command it starts with, if any. */
export interface Prompt {
  text: string;
  slash?: { name: string; args: string };
}

/** A `file://` URI as a path; other URIs as they are. */
function pathOf(uri: string): string {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
  } catch {
    return uri;
  }
}

/**
 * The editor's content blocks as one prompt: text as typed, a linked file named for the model to
 * read, an embedded resource (an open buffer's text) inline with where it came from.
 */
export function promptText(blocks: acp.ContentBlock[]): Prompt {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(`@${pathOf(block.uri)}`);
    else if (block.type === 'resource' && 'text' in block.resource)
      parts.push(`<file path="${pathOf(block.resource.uri)}">\n${block.resource.text}\n</file>`);
    else if (block.type === 'resource') parts.push(`@${pathOf(block.resource.uri)}`);
    // Images and audio are not advertised (promptCapabilities), so an editor does not send them.
  }
  const text = parts.join('\n').trim();
  const slash = /^\/([a-zA-Z0-9_-]+)(?:\s+([\s\S]*))?$/.exec(text);
  return { text, ...(slash ? { slash: { name: slash[1]!, args: (slash[2] ?? '').trim() } } : {}) };
}
