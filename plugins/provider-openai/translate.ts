import type OpenAI from 'openai';
import { type ProviderResponse, type ProviderStreamEvent, type StopReason, type ToolCallPart, type Usage } from '../../core/index.js';
import { ReplyBuilder, WireProtocolError, parseToolInput } from '../../core/kits/provider/index.js';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

const STOP_REASONS: Record<string, StopReason> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

/** The API's finish reason in the internal vocabulary. */
export function stopReasonOf(reason: string | null | undefined): StopReason {
  return (reason && STOP_REASONS[reason]) || 'end_turn';
}

/** OpenAI counts cached tokens inside `prompt_tokens`; internally `inputTokens` never includes them. */
export function usageOf(usage: OpenAI.Completions.CompletionUsage | null | undefined): Partial<Usage> {
  if (!usage) return {};
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { inputTokens: usage.prompt_tokens - cached, outputTokens: usage.completion_tokens, cacheReadTokens: cached, cacheWriteTokens: 0 };
}

/** Reasoning text from OpenAI-compatible servers that stream it (DeepSeek, vLLM, Ollama use one of these names). */
function reasoningOf(delta: object): string | undefined {
  const value = (delta as { reasoning_content?: unknown; reasoning?: unknown }).reasoning_content ?? (delta as { reasoning?: unknown }).reasoning;
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * Translates a Chat Completions stream into normalized events. Tool calls arrive by index, their
 * arguments split across chunks; each is checked when the choice finishes.
 */
export async function* translateStream(chunks: AsyncIterable<Chunk>, model: string): AsyncGenerator<ProviderStreamEvent> {
  const reply = new ReplyBuilder(model);
  const ids = new Map<number, string>();
  let finish: string | undefined;
  let started = false;
  for await (const chunk of chunks) {
    if (!started) {
      started = true;
      yield { type: 'message_start', model: chunk.model || model };
    }
    if (chunk.usage) reply.addUsage(usageOf(chunk.usage));
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) yield reply.thinking(reasoning);
    if (delta.content) yield reply.text(delta.content);
    for (const call of delta.tool_calls ?? []) {
      // Some compatible servers leave out `index` and send each call whole, with its id.
      const index = call.index ?? (call.id ? ids.size : Math.max(0, ids.size - 1));
      let id = ids.get(index);
      if (!id) {
        if (!call.function?.name) throw new WireProtocolError(`tool call ${index} started without a function name`);
        id = call.id || `call_${index}_${Date.now().toString(36)}`;
        ids.set(index, id);
        yield reply.toolStart(id, call.function.name);
      }
      if (call.function?.arguments) yield reply.toolDelta(id, call.function.arguments)!;
    }
    if (choice.finish_reason) {
      finish = choice.finish_reason;
      for (const id of ids.values()) if (reply.isOpen(id)) yield reply.toolEnd(id)!;
    }
  }
  if (!finish) throw new WireProtocolError('the stream ended before a finish_reason');
  yield* reply.finish(stopReasonOf(finish));
}

/** A non-streamed response → the internal response. */
export function translateCompletion(completion: OpenAI.Chat.Completions.ChatCompletion): ProviderResponse {
  const choice = completion.choices[0];
  if (!choice) throw new WireProtocolError('the response has no choices');
  const stopReason = stopReasonOf(choice.finish_reason);
  const content: ProviderResponse['message']['content'] = [];
  const reasoning = reasoningOf(choice.message);
  if (reasoning) content.push({ type: 'thinking', text: reasoning });
  if (choice.message.content) content.push({ type: 'text', text: choice.message.content });
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const parsed = parseToolInput(call.function.arguments);
    const part: ToolCallPart = { type: 'tool_call', id: call.id, name: call.function.name, input: parsed.input };
    if (parsed.error) part.inputError = parsed.error;
    content.push(part);
  }
  const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, ...usageOf(completion.usage) };
  return { message: { role: 'assistant', content, meta: { model: completion.model, stopReason, time: Date.now() } }, usage, stopReason };
}
