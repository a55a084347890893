// OpenAI Chat Completions wire format: request checks, SSE chunks, response bodies, error bodies.
import { randomBytes } from 'node:crypto';
import { OpenAIPromptCache } from './prompt-cache.js';
import { countTokens } from './tokens.js';

const ERRORS = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
  529: { type: 'server_error', code: null },
};

/** @param {number} status @param {string} message @param {string} [type] */
export function errorBody(status, message, type) {
  const known = ERRORS[status] ?? { type: 'server_error', code: null };
  return { error: { message, type: type ?? known.type, param: null, code: type ?? known.code } };
}

/** @param {any} content */
const textOf = (content) =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';

/** The request in neutral form, for matching. @param {any} body @returns {import('./script.js').NeutralRequest} */
export function normalize(body) {
  const messages = body.messages ?? [];
  /** @type {import('./script.js').NeutralMessage[]} */
  const out = [];
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
      toolCalls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function?.name, input: safeParse(c.function?.arguments) })),
    });
  }
  return {
    provider: 'openai',
    model: body.model,
    stream: body.stream === true,
    system: messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content)).join('\n'),
    tools: (body.tools ?? []).map((t) => t.function?.name),
    messages: out,
  };
}

/** @param {unknown} text */
function safeParse(text) {
  try {
    return JSON.parse(String(text));
  } catch {
    return text;
  }
}

/**
 * What the real API would refuse, as `{ status, message }`, or undefined.
 * @param {any} body @param {import('node:http').IncomingHttpHeaders} headers @param {{ apiKey?: string, models?: string[] }} fixture
 */
export function validate(body, headers, fixture) {
  if (fixture.apiKey !== undefined) {
    const given = String(headers.authorization ?? '').replace(/^Bearer /, '');
    if (given !== fixture.apiKey) return { status: 401, message: `Incorrect API key provided: ${given.slice(0, 6)}***.` };
  }
  if (typeof body.model !== 'string') return { status: 400, message: 'you must provide a model parameter' };
  if (fixture.models && !fixture.models.includes(body.model))
    return { status: 404, message: `The model \`${body.model}\` does not exist or you do not have access to it.` };
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { status: 400, message: "[] is too short - 'messages'" };
  const messages = body.messages;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j].role === 'tool') j--;
      const calls = new Set((messages[j]?.tool_calls ?? []).map((c) => c.id));
      if (!calls.has(m.tool_call_id))
        return { status: 400, message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." };
    }
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const answered = new Set();
      for (let j = i + 1; j < messages.length && messages[j].role === 'tool'; j++) answered.add(messages[j].tool_call_id);
      const missing = m.tool_calls.map((c) => c.id).filter((id) => !answered.has(id));
      if (missing.length)
        return {
          status: 400,
          message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        };
    }
  }
  return undefined;
}

/** @param {string} text @param {number} size */
function chunks(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * @typedef {{ model: string, content: import('./script.js').ContentSpec[], promptTokens: number, cachedTokens: number,
 *   stopReason?: string, outputTokens?: number, chunkSize: number, truncateAt?: number, includeUsage: boolean }} OpenAIReply
 */

/** @param {import('./script.js').ContentSpec[]} content */
function outputTokens(content) {
  return content.reduce((sum, b) => sum + countTokens(b.type === 'tool_call' ? JSON.stringify(b.input ?? {}) : b.type === 'redacted_thinking' ? '' : b.text), 0);
}

/** @param {OpenAIReply} reply */
function usage(reply) {
  const completion = reply.outputTokens ?? outputTokens(reply.content);
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: completion,
    total_tokens: reply.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: reply.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** @param {OpenAIReply} reply @param {boolean} truncated */
function finishReason(reply, truncated) {
  if (truncated) return 'length';
  if (reply.stopReason) return { end_turn: 'stop', max_tokens: 'length', tool_use: 'tool_calls' }[reply.stopReason] ?? reply.stopReason;
  return reply.content.some((b) => b.type === 'tool_call') ? 'tool_calls' : 'stop';
}

/** The non-streamed response body. @param {OpenAIReply} reply */
export function responseBody(reply) {
  const calls = reply.content.filter((b) => b.type === 'tool_call');
  const truncated = reply.truncateAt !== undefined && calls.length > 0;
  const text = reply.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
  const reasoning = reply.content.filter((b) => b.type === 'thinking').map((b) => b.text).join('');
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

/** The streamed response as SSE data chunks (the terminal `[DONE]` is added by the writer). @param {OpenAIReply} reply */
export function streamEvents(reply) {
  const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const calls = reply.content.filter((b) => b.type === 'tool_call');
  const truncated = reply.truncateAt !== undefined && calls.length > 0;
  const events = [];
  const chunk = (/** @type {any} */ delta, /** @type {string | null} */ finish = null) =>
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

/** @param {{ data: unknown }} e */
export function sseFrame(e) {
  return `data: ${JSON.stringify(e.data)}\n\n`;
}

export const DONE_FRAME = 'data: [DONE]\n\n';

/** The error chunk OpenAI-compatible servers send when they fail mid-stream. @param {string} type @param {string} message */
export function errorEvent(type, message) {
  return { data: { error: { message, type, param: null, code: null } } };
}

export const cacheFor = (/** @type {any} */ options) => new OpenAIPromptCache(options);
