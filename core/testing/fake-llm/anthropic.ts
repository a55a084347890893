// Anthropic Messages API wire format: request checks, SSE events, response bodies, error bodies.
import type { IncomingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';
import { AnthropicPromptCache, MAX_BREAKPOINTS, type CacheUsage, type WireBody } from './prompt-cache.js';
import type { ContentSpec, Fixture, NeutralRequest, PromptCacheOptions } from './script.js';
import { countTokens, signThinking } from './tokens.js';
import type { SseEvent, WireRefusal } from './wire.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
  529: 'overloaded_error',
};

/** An error response body in the API's format. */
export function errorBody(status: number, message: string, type?: string): WireBody {
  return { type: 'error', error: { type: type ?? ERROR_TYPES[status] ?? 'api_error', message }, request_id: `req_${randomBytes(12).toString('hex')}` };
}

const blocksOf = (content: WireBody): WireBody[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : []);

const textOf = (blocks: WireBody[]): string =>
  blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? blocksOf(b.content).map((c) => c.text ?? '').join('') : ''))
    .filter(Boolean)
    .join('\n');

/** The request in neutral form, for matching. */
export function normalize(body: WireBody): NeutralRequest {
  return {
    provider: 'anthropic',
    model: body.model,
    stream: body.stream === true,
    system: textOf(blocksOf(body.system)),
    tools: (body.tools ?? []).map((t: WireBody) => t.name),
    messages: (body.messages ?? []).map((m: WireBody) => {
      const blocks = blocksOf(m.content);
      const toolResults = blocks
        .filter((b) => b.type === 'tool_result')
        .map((b) => ({ id: b.tool_use_id, text: textOf(blocksOf(b.content)), isError: b.is_error === true }));
      return {
        role: toolResults.length && blocks.every((b) => b.type === 'tool_result') ? 'tool' : m.role,
        text: textOf(blocks.filter((b) => b.type === 'text')),
        toolResults,
        toolCalls: blocks.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, input: b.input })),
      };
    }),
  };
}

/**
 * What the real API would refuse, as `{ status, message }`, or undefined. `redacted` holds the
 * redacted thinking data this server issued.
 */
export function validate(body: WireBody, headers: IncomingHttpHeaders, fixture: Fixture, redacted: Set<string>): WireRefusal | undefined {
  if (fixture.apiKey !== undefined) {
    const given = headers['x-api-key'] ?? String(headers.authorization ?? '').replace(/^Bearer /, '');
    if (given !== fixture.apiKey) return { status: 401, message: 'invalid x-api-key' };
  }
  if (!headers['anthropic-version']) return { status: 400, message: 'anthropic-version: header is required' };
  if (typeof body.model !== 'string') return { status: 400, message: 'model: Field required' };
  if (fixture.models && !fixture.models.includes(body.model)) return { status: 404, message: `model: ${body.model}` };
  if (!Number.isInteger(body.max_tokens)) return { status: 400, message: 'max_tokens: Field required' };
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { status: 400, message: 'messages: at least one message is required' };
  if (body.messages[0].role !== 'user') return { status: 400, message: 'messages: first message must use the "user" role' };
  const thinking = body.thinking?.type === 'enabled';
  if (thinking && !(body.thinking.budget_tokens >= 1024 && body.thinking.budget_tokens < body.max_tokens))
    return { status: 400, message: 'thinking.budget_tokens: must be at least 1024 and less than max_tokens' };

  let breakpoints = 0;
  const count = (b: WireBody) => (b && b.cache_control ? breakpoints++ : 0);
  (body.tools ?? []).forEach(count);
  blocksOf(body.system).forEach(count);
  for (const m of body.messages) blocksOf(m.content).forEach(count);
  if (breakpoints > MAX_BREAKPOINTS)
    return { status: 400, message: `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.` };

  for (let i = 0; i < body.messages.length; i++) {
    const blocks = blocksOf(body.messages[i].content);
    for (let j = 0; j < blocks.length; j++) {
      const block = blocks[j];
      if (block.type === 'thinking' && (typeof block.signature !== 'string' || block.signature !== signThinking(block.thinking ?? '')))
        return { status: 400, message: `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block` };
      if (block.type === 'redacted_thinking' && !redacted.has(block.data))
        return { status: 400, message: `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block` };
    }
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (body.messages[i].role === 'assistant' && uses.length) {
      const next = body.messages[i + 1];
      const answered = new Set(next ? blocksOf(next.content).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length)
        return {
          status: 400,
          message: `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        };
      if (thinking && i === body.messages.length - 2 && !['thinking', 'redacted_thinking'].includes(blocks[0]?.type))
        return {
          status: 400,
          message: `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${blocks[0]?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`,
        };
    }
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    if (results.length) {
      const previous = body.messages[i - 1];
      const used = new Set(previous?.role === 'assistant' ? blocksOf(previous.content).filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
      const unexpected = results.filter((id) => !used.has(id));
      if (unexpected.length)
        return {
          status: 400,
          message: `messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        };
    }
  }
  return undefined;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

/** The reply as Anthropic content blocks (complete, as a non-streamed response carries them). */
export function contentBlocks(content: ContentSpec[], redacted: Set<string>): WireBody[] {
  return content.map((block) => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'thinking') return { type: 'thinking', thinking: block.text, signature: signThinking(block.text) };
    if (block.type === 'redacted_thinking') {
      redacted.add(block.data);
      return { type: 'redacted_thinking', data: block.data };
    }
    return { type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} };
  });
}

/** Output tokens of a reply's blocks. */
export function outputTokens(blocks: WireBody[]): number {
  return blocks.reduce((sum: number, b) => sum + countTokens(b.text ?? b.thinking ?? b.data ?? JSON.stringify(b.input ?? '')), 0);
}

function stopReasonOf(blocks: WireBody[], forced: string | undefined): string {
  return forced ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

/** Usage in the API's field names. */
function usage(cache: CacheUsage, output: number) {
  return {
    input_tokens: cache.inputTokens,
    cache_creation_input_tokens: cache.cacheWriteTokens,
    cache_read_input_tokens: cache.cacheReadTokens,
    output_tokens: output,
  };
}

/** A reply ready to be written: its blocks and the figures for its usage. */
export interface AnthropicReply {
  model: string;
  blocks: WireBody[];
  cache: CacheUsage;
  stopReason?: string;
  outputTokens?: number;
}

/** The non-streamed response body. */
export function responseBody(reply: AnthropicReply): WireBody {
  return {
    id: `msg_${randomBytes(12).toString('hex')}`,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: reply.blocks,
    stop_reason: stopReasonOf(reply.blocks, reply.stopReason),
    stop_sequence: null,
    usage: usage(reply.cache, reply.outputTokens ?? outputTokens(reply.blocks)),
  };
}

/**
 * The streamed response as SSE events `{ event, data }`, in the order the API sends them.
 * `truncateAt` cuts the last tool call's JSON after that many characters and ends as `max_tokens`.
 */
export function streamEvents(reply: AnthropicReply & { chunkSize: number; truncateAt?: number }): SseEvent[] {
  const events: SseEvent[] = [];
  const emit = (event: string, data: WireBody) => events.push({ event, data: { type: event, ...data } });
  const lastTool = reply.blocks.map((b) => b.type).lastIndexOf('tool_use');
  const truncated = reply.truncateAt !== undefined && lastTool >= 0;
  const blocks = truncated ? reply.blocks.slice(0, lastTool + 1) : reply.blocks;
  emit('message_start', {
    message: {
      id: `msg_${randomBytes(12).toString('hex')}`,
      type: 'message',
      role: 'assistant',
      model: reply.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(reply.cache, 1),
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (index === 0) events.push({ event: 'ping', data: { type: 'ping' } });
      for (const text of chunks(block.text, reply.chunkSize)) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    } else if (block.type === 'thinking') {
      emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of chunks(block.thinking, reply.chunkSize)) emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
      emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'redacted_thinking') {
      emit('content_block_start', { index, content_block: { type: 'redacted_thinking', data: block.data } });
    } else {
      emit('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      let json = JSON.stringify(block.input);
      if (truncated && index === lastTool) json = json.slice(0, reply.truncateAt);
      for (const partial_json of chunks(json, reply.chunkSize)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', {
    delta: { stop_reason: truncated ? 'max_tokens' : stopReasonOf(blocks, reply.stopReason), stop_sequence: null },
    usage: { output_tokens: reply.outputTokens ?? outputTokens(blocks) },
  });
  emit('message_stop', {});
  return events;
}

/** One SSE frame as the API writes it. */
export function sseFrame(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** The mid-stream error event the API sends when it fails after the response began. */
export function errorEvent(type: string, message: string): SseEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}

/** The prompt cache of one fixture. */
export const cacheFor = (options?: PromptCacheOptions) => new AnthropicPromptCache(options);
/** What count_tokens answers for a body. */
export const countInputTokens = AnthropicPromptCache.inputTokens;
