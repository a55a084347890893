import type { CallToolResult, ContentBlock, EmbeddedResource, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ImagePart, Json, TextPart, ToolResult } from '../../core/index.js';

type Part = TextPart | ImagePart;
type ResourceContents = EmbeddedResource['resource'] | ReadResourceResult['contents'][number];

const text = (value: string): TextPart => ({ type: 'text', text: value });

/** Most characters of text a result passes on (about 25k tokens), so one call cannot flood the context. */
export const MAX_RESULT_CHARS = 100_000;

/** Cuts the text parts to `MAX_RESULT_CHARS` in all, saying how much was left out. */
function limitText(parts: Part[]): Part[] {
  const total = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  if (total <= MAX_RESULT_CHARS) return parts;
  let budget = MAX_RESULT_CHARS;
  const kept: Part[] = [];
  for (const part of parts) {
    if (part.type !== 'text') kept.push(part);
    else if (budget > 0) {
      kept.push(part.text.length <= budget ? part : text(part.text.slice(0, budget)));
      budget -= Math.min(budget, part.text.length);
    }
  }
  kept.push(text(`[output cut: ${total - MAX_RESULT_CHARS} of ${total} characters left out; ask the tool for less]`));
  return kept;
}
const isImage = (mimeType: string | undefined) => typeof mimeType === 'string' && /^image\/(png|jpeg|gif|webp)$/.test(mimeType);
const approxBytes = (base64: string) => Math.floor((base64.length * 3) / 4);

/** One resource's contents as the model can take them: text inline, supported images as images, other binary as a note. */
export function resourcePart(resource: ResourceContents): Part {
  const mime = resource.mimeType ? ` mimeType="${resource.mimeType}"` : '';
  if ('text' in resource && typeof resource.text === 'string') return text(`<resource uri="${resource.uri}"${mime}>\n${resource.text}\n</resource>`);
  const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
  if (isImage(resource.mimeType)) return { type: 'image', mediaType: resource.mimeType!, data: blob };
  return text(`[binary resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}, about ${approxBytes(blob)} bytes, not shown]`);
}

/** One content block of a tool result. */
function contentPart(block: ContentBlock): Part {
  switch (block.type) {
    case 'text':
      return text(block.text);
    case 'image':
      return isImage(block.mimeType) ? { type: 'image', mediaType: block.mimeType, data: block.data } : text(`[image (${block.mimeType}) in a format the model cannot take, not shown]`);
    case 'audio':
      return text(`[audio (${block.mimeType}), about ${approxBytes(block.data)} bytes, not shown]`);
    case 'resource':
      return resourcePart(block.resource);
    case 'resource_link':
      return text(`[resource ${block.uri}${block.name ? ` "${block.name}"` : ''}${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? `: ${block.description}` : ''}]`);
    default:
      return text(`[content of type "${(block as { type: string }).type}" not shown]`);
  }
}

/**
 * A server's answer to `tools/call` as a tool result: text, images and embedded resources are
 * kept; structured content stands in when there is no other content; `isError` stays an error
 * result (with a stable code) the model can act on.
 */
export function toToolResult(result: CallToolResult | { toolResult: unknown }, server: string, tool: string): ToolResult {
  const metadata: { [key: string]: Json } = { server, tool };
  let content: Part[];
  if ('content' in result && Array.isArray(result.content)) {
    content = result.content.map(contentPart);
    if (!content.length && result.structuredContent !== undefined) content = [text(JSON.stringify(result.structuredContent, null, 2))];
  } else content = [text(JSON.stringify((result as { toolResult: unknown }).toolResult ?? null, null, 2))];
  content = limitText(content);
  if ('isError' in result && result.isError) {
    if (!content.length) content = [text(`${tool} on the MCP server "${server}" reported an error without details.`)];
    return { content, isError: true, metadata: { ...metadata, code: 'ASSISTANT_MCP_TOOL_ERROR' } };
  }
  if (!content.length) content = [text('(no output)')];
  return { content, metadata };
}
