// OpenAI Chat Completions wire format: request checks, SSE chunks, response bodies, error bodies.
import type { IncomingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';
import { OpenAIPromptCache, type WireBody } from './prompt-cache.js';
import type { ContentSpec, Fixture, NeutralMessage, NeutralRequest, PromptCacheOptions } from './script.js';
import { countTokens } from './tokens.js';
import type { SseEvent, WireRefusal } from './wire.js';

const ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
  529: { type: 'server_error', code: null },
};

/** An error response body in the API's format. */
export function errorBody(status: number, message: string, type?: string): WireBody {
  const known = ERRORS[status] ?? { type: 'server_error', code: null };
  return { error: { message, type: type ?? known.type, param: null, code: type ?? known.code } };
}

const textOf = (content: WireBody): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: WireBody) => (p.type === 'text' ? p.text : '')).join('') : '';

/** The request in neutral form, for matching. */
export function normalize(body: WireBody): NeutralRequest {
  const messages: WireBody[] = body.messages ?? [];
  const out: NeutralMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') continue;
    if (m.role === 'tool') {
      const result = { id: m.tool_call_id, text: textOf(m.content), isError: false };
      const last = out[out.length - 1];
      if (last?.role === 'tool') last.toolResults.push(result);
      else out.push({ role: 'tool', text: '', toolResults: [result], toolCalls: [] });
      continue;
    }
    out.push({
      role: m.role,
      text: textOf(m.content),
      toolResults: [],
      toolCalls: (m.tool_calls ?? []).map((c: WireBody) => ({ id: c.id, name: c.function?.name, input: safeParse(c.function?.arguments) })),
    });
  }
  return {
    provider: 'openai',
    model: body.model,
    stream: body.stream === true,
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => textOf(m.content))
      .join('\n'),
    tools: (body.tools ?? []).map((t: WireBody) => t.function?.name),
    messages: out,
  };
}

function safeParse(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return text;
  }
}

/** What the real API would refuse, as `{ status, message }`, or undefined. */
export function validate(body: WireBody, headers: IncomingHttpHeaders, fixture: Fixture): WireRefusal | undefined {
  if (fixture.apiKey !== undefined) {
    const given = String(headers.authorization ?? '').replace(/^Bearer /, '');
    if (given !== fixture.apiKey) return { status: 401, message: `Incorrect API key provided: ${given.slice(0, 6)}***.` };
  }
  if (typeof body.model !== 'string') return { status: 400, message: 'you must provide a model parameter' };
  if (fixture.models && !fixture.models.includes(body.model))
    return { status: 404, message: `The model \`${body.model}\` does not exist or you do not have access to it.` };
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { status: 400, message: "[] is too short - 'messages'" };
  const messages: WireBody[] = body.messages;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j].role === 'tool') j--;
      const calls = new Set((messages[j]?.tool_calls ?? []).map((c: WireBody) => c.id));
      if (!calls.has(m.tool_call_id))
        return { status: 400, message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." };
    }
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const answered = new Set();
      for (let j = i + 1; j < messages.length && messages[j].role === 'tool'; j++) answered.add(messages[j].tool_call_id);
      const missing = m.tool_calls.map((c: WireBody) => c.id).filter((id: string) => !answered.has(id));
      if (missing.length)
        return {
          status: 400,
          message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        };
    }
  }
  return undefined;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A reply ready to be written, with the figures for its usage. */
export interface OpenAIReply {
  model: string;
  content: ContentSpec[];
  promptTokens: number;
  cachedTokens: number;
  stopReason?: string;
  outputTokens?: number;
  chunkSize: number;
  truncateAt?: number;
  includeUsage: boolean;
}

function outputTokens(content: ContentSpec[]): number {
  return content.reduce(
    (sum, b) => sum + countTokens(b.type === 'tool_call' ? JSON.stringify(b.input ?? {}) : b.type === 'redacted_thinking' ? '' : b.text),
    0,
  );
}

function usage(reply: OpenAIReply) {
  const completion = reply.outputTokens ?? outputTokens(reply.content);
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: completion,
    total_tokens: reply.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: reply.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

const FINISH_REASONS: Record<string, string> = { end_turn: 'stop', max_tokens: 'length', tool_use: 'tool_calls' };

function finishReason(reply: OpenAIReply, truncated: boolean): string {
  if (truncated) return 'length';
  if (reply.stopReason) return FINISH_REASONS[reply.stopReason] ?? reply.stopReason;
  return reply.content.some((b) => b.type === 'tool_call') ? 'tool_calls' : 'stop';
}

type CallSpec = Extract<ContentSpec, { type: 'tool_call' }>;
const callsOf = (content: ContentSpec[]) => content.filter((b): b is CallSpec => b.type === 'tool_call');

/** The non-streamed response body. */
export function responseBody(reply: OpenAIReply): WireBody {
  const calls = callsOf(reply.content);
  const truncated = reply.truncateAt !== undefined && calls.length > 0;
  const text = reply.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const reasoning = reply.content.map((b) => (b.type === 'thinking' ? b.text : '')).join('');
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    system_fingerprint: 'fp_fake_llm',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          refusal: null,
          ...(calls.length
            ? {
                tool_calls: calls.map((c, i) => {
                  let args = JSON.stringify(c.input ?? {});
                  if (truncated && i === calls.length - 1) args = args.slice(0, reply.truncateAt);
                  return { id: c.id, type: 'function', function: { name: c.name, arguments: args } };
                }),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason(reply, truncated),
      },
    ],
    usage: usage(reply),
  };
}

/** The streamed response as SSE data chunks (the terminal `[DONE]` is added by the writer). */
export function streamEvents(reply: OpenAIReply): SseEvent[] {
  const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const calls = callsOf(reply.content);
  const truncated = reply.truncateAt !== undefined && calls.length > 0;
  const events: SseEvent[] = [];
  const chunk = (delta: WireBody, finish: string | null = null) =>
    events.push({
      data: { id, object: 'chat.completion.chunk', created, model: reply.model, system_fingerprint: 'fp_fake_llm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] },
    });
  chunk({ role: 'assistant', content: '', refusal: null });
  let callIndex = 0;
  for (const block of reply.content) {
    if (block.type === 'thinking') for (const piece of chunks(block.text, reply.chunkSize)) chunk({ reasoning_content: piece });
    else if (block.type === 'text') for (const piece of chunks(block.text, reply.chunkSize)) chunk({ content: piece });
    else if (block.type === 'tool_call') {
      const index = callIndex++;
      let args = JSON.stringify(block.input ?? {});
      if (truncated && index === calls.length - 1) args = args.slice(0, reply.truncateAt);
      chunk({ tool_calls: [{ index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] });
      for (const piece of chunks(args, reply.chunkSize)) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }
  chunk({}, finishReason(reply, truncated));
  if (reply.includeUsage)
    events.push({ data: { id, object: 'chat.completion.chunk', created, model: reply.model, system_fingerprint: 'fp_fake_llm', choices: [], usage: usage(reply) } });
  return events;
}

/** One SSE frame as the API writes it. */
export function sseFrame(e: SseEvent): string {
  return `data: ${JSON.stringify(e.data)}\n\n`;
}

/** The frame that ends every OpenAI stream. */
export const DONE_FRAME = 'data: [DONE]\n\n';

/** The error chunk OpenAI-compatible servers send when they fail mid-stream. */
export function errorEvent(type: string, message: string): SseEvent {
  return { data: { error: { message, type, param: null, code: null } } };
}

/** The prompt cache of one fixture. */
export const cacheFor = (options?: PromptCacheOptions) => new OpenAIPromptCache(options);
