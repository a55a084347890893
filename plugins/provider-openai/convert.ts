import type OpenAI from 'openai';
import type { ImagePart, Message, ProviderRequest, TextPart } from '../../core/index.js';

type Wire = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserContent = OpenAI.Chat.Completions.ChatCompletionContentPart;

function userContent(parts: Array<TextPart | ImagePart>): string | UserContent[] {
  if (parts.every((p) => p.type === 'text')) return parts.map((p) => (p as TextPart).text).join('');
  return parts.map((p): UserContent =>
    p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: `data:${p.mediaType};base64,${p.data}` } },
  );
}

function toolResultText(parts: Array<TextPart | ImagePart>, isError: boolean | undefined): string {
  // Tool messages carry text only; the model is told an image was left out rather than left guessing.
  const text = parts.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType} omitted: tool results here carry text only]`)).join('\n');
  return isError && !/^error\b/i.test(text) ? `Error: ${text}` : text;
}

function toWireMessage(message: Message): WireMessage[] {
  if (message.role === 'user') return [{ role: 'user', content: userContent(message.content) }];
  if (message.role === 'tool')
    return message.content.map((r) => ({ role: 'tool', tool_call_id: r.toolCallId, content: toolResultText(r.content, r.isError) }));
  // Reasoning is never sent back: Chat Completions has no field for it and some servers reject it.
  const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  const calls = message.content.flatMap((p) =>
    p.type === 'tool_call' ? [{ id: p.id, type: 'function' as const, function: { name: p.name, arguments: JSON.stringify(p.input) } }] : [],
  );
  return [{ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) }];
}

/** The settings that shape a request beyond its content. */
export interface RequestShape {
  /** OpenAI wants `max_completion_tokens`; many compatible servers only know `max_tokens`. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  reasoningEffort?: OpenAI.ReasoningEffort;
}

/** A provider request → the Chat Completions body (without `stream`). OpenAI caches prefixes on its own, so cache hints are not sent. */
export function toWireRequest(request: ProviderRequest, shape: RequestShape): Wire {
  const messages: WireMessage[] = [];
  const system = request.system.map((s) => s.text).filter(Boolean).join('\n\n');
  if (system) messages.push({ role: 'system', content: system });
  for (const message of request.messages) messages.push(...toWireMessage(message));
  const body: Wire = { model: request.model, messages, [shape.maxTokensField]: request.maxTokens };
  if (request.tools.length)
    body.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema as OpenAI.FunctionParameters },
    }));
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences?.length) body.stop = request.stopSequences;
  if (shape.reasoningEffort) body.reasoning_effort = shape.reasoningEffort;
  const { headers: _headers, ...extra } = request.extra ?? {};
  return { ...body, ...extra } as Wire;
}
