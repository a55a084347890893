import type Anthropic from '@anthropic-ai/sdk';
import type { CacheHints, ImagePart, Message, ProviderRequest, TextPart } from '../../core/index.js';

type Wire = Anthropic.Messages.MessageCreateParamsNonStreaming;
type Block = Anthropic.Messages.ContentBlockParam;
type WireMessage = { role: 'user' | 'assistant'; content: Block[] };

/** Anthropic accepts at most this many `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

function media(part: ImagePart): Anthropic.Messages.ImageBlockParam {
  return {
    type: 'image',
    source: { type: 'base64', media_type: part.mediaType as Anthropic.Messages.Base64ImageSource['media_type'], data: part.data },
  };
}

function userBlocks(parts: Array<TextPart | ImagePart>): Block[] {
  // The API refuses empty text blocks.
  return parts.flatMap((p): Block[] => (p.type === 'image' ? [media(p)] : p.text ? [{ type: 'text', text: p.text }] : []));
}

function messageBlocks(message: Message): Block[] {
  if (message.role === 'user') return userBlocks(message.content);
  if (message.role === 'tool')
    return message.content.map((result) => ({
      type: 'tool_result',
      tool_use_id: result.toolCallId,
      content: userBlocks(result.content) as Anthropic.Messages.ToolResultBlockParam['content'],
      ...(result.isError ? { is_error: true } : {}),
    }));
  return message.content.flatMap((part): Block[] => {
    if (part.type === 'text') return part.text ? [{ type: 'text', text: part.text }] : [];
    if (part.type === 'tool_call') return [{ type: 'tool_use', id: part.id, name: part.name, input: part.input }];
    if (part.redacted) return part.data ? [{ type: 'redacted_thinking', data: part.data }] : [];
    // Thinking without a signature (e.g. from another provider) cannot be sent back; it is dropped.
    return part.signature ? [{ type: 'thinking', thinking: part.text, signature: part.signature }] : [];
  });
}

/**
 * Internal messages → Anthropic messages. Consecutive messages of one wire role are merged (tool
 * results travel as a user message). Returns, for each internal message, the wire block that ends
 * it, so cache breakpoints can be placed after it.
 */
export function toWireMessages(messages: Message[]): { wire: WireMessage[]; ends: (Block | undefined)[] } {
  const wire: WireMessage[] = [];
  const ends: (Block | undefined)[] = [];
  for (const message of messages) {
    const blocks = messageBlocks(message);
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = wire[wire.length - 1];
    if (blocks.length === 0) {
      ends.push(undefined);
      continue;
    }
    if (last?.role === role) last.content.push(...blocks);
    else wire.push({ role, content: blocks });
    ends.push([...blocks].reverse().find((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking'));
  }
  return { wire, ends };
}

/**
 * Places `cache_control` breakpoints where the context strategy says the stable prefix ends: after
 * system + tools, and after the given messages, at most four in all (the latest messages win,
 * since the longest cached prefix saves the most).
 */
export function placeBreakpoints(body: Pick<Wire, 'system' | 'tools'>, ends: (Block | undefined)[], hints: CacheHints | undefined): number {
  if (!hints) return 0;
  const marked: { cache_control?: Anthropic.Messages.CacheControlEphemeral | null }[] = [];
  const system = Array.isArray(body.system) ? body.system : [];
  const prefixEnd = system[system.length - 1] ?? body.tools?.[body.tools.length - 1];
  if (hints.system && prefixEnd) marked.push(prefixEnd as { cache_control?: null });
  const room = MAX_CACHE_BREAKPOINTS - marked.length;
  const indices = [...new Set(hints.messages)].filter((i) => ends[i]).sort((a, b) => a - b).slice(-room);
  for (const i of indices) marked.push(ends[i] as { cache_control?: null });
  for (const block of marked) block.cache_control = { type: 'ephemeral' };
  return marked.length;
}

/** The settings that shape a request beyond its content. */
export interface RequestShape {
  maxTokens: number;
  thinkingBudget?: number;
}

/** A provider request → the Messages API body (without `stream`). */
export function toWireRequest(request: ProviderRequest, shape: RequestShape): Wire {
  const { wire, ends } = toWireMessages(request.messages);
  const body: Wire = {
    model: request.model,
    max_tokens: shape.maxTokens,
    messages: wire as Anthropic.Messages.MessageParam[],
  };
  const system = request.system.filter((s) => s.text).map((s): Anthropic.Messages.TextBlockParam => ({ type: 'text', text: s.text }));
  if (system.length) body.system = system;
  if (request.tools.length)
    body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Anthropic.Messages.Tool.InputSchema }));
  if (shape.thinkingBudget) {
    body.thinking = { type: 'enabled', budget_tokens: shape.thinkingBudget };
    // The budget is part of max_tokens; leave room for the answer itself.
    if (body.max_tokens <= shape.thinkingBudget) body.max_tokens = shape.thinkingBudget + shape.maxTokens;
  } else if (request.temperature !== undefined) {
    // Still accepted by the API, though the 1.x SDK types no longer list it.
    (body as { temperature?: number }).temperature = request.temperature;
  }
  if (request.stopSequences?.length) body.stop_sequences = request.stopSequences;
  placeBreakpoints(body, ends, request.cache);
  const { headers: _headers, ...extra } = request.extra ?? {};
  return { ...body, ...extra } as Wire;
}
