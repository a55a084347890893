import type Anthropic from '@anthropic-ai/sdk';
import { type ProviderResponse, type ProviderStreamEvent, type StopReason, type ToolCallPart, type Usage } from '../../core/index.js';
import { ReplyBuilder, WireProtocolError, parseToolInput } from '../../core/kits/provider/index.js';

type RawEvent = Anthropic.Messages.RawMessageStreamEvent;

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
  pause_turn: 'end_turn',
};

/** The API's stop reason in the internal vocabulary. */
export function stopReasonOf(reason: string | null | undefined): StopReason {
  return (reason && STOP_REASONS[reason]) || 'end_turn';
}

/** The API's usage record in the internal shape; fields it left out stay out. */
export function usageOf(usage: Partial<Anthropic.Messages.Usage> | null | undefined): Partial<Usage> {
  if (!usage) return {};
  const out: Partial<Usage> = {};
  if (typeof usage.input_tokens === 'number') out.inputTokens = usage.input_tokens;
  if (typeof usage.output_tokens === 'number') out.outputTokens = usage.output_tokens;
  if (typeof usage.cache_read_input_tokens === 'number') out.cacheReadTokens = usage.cache_read_input_tokens;
  if (typeof usage.cache_creation_input_tokens === 'number') out.cacheWriteTokens = usage.cache_creation_input_tokens;
  return out;
}

/**
 * Translates the raw Messages API stream into normalized events. Tool inputs are accumulated as
 * raw JSON and checked when their block stops (not the SDK helper's partial objects).
 */
export async function* translateStream(events: AsyncIterable<RawEvent>, model: string): AsyncGenerator<ProviderStreamEvent> {
  const reply = new ReplyBuilder(model);
  const toolIds = new Map<number, string>();
  let stopReason: string | null | undefined;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        reply.addUsage(usageOf(event.message.usage));
        yield { type: 'message_start', model: event.message.model ?? model };
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          if (block.text) yield reply.text(block.text);
        } else if (block.type === 'thinking') {
          reply.beginThinking();
          if (block.thinking) yield reply.thinking(block.thinking);
        } else if (block.type === 'redacted_thinking') reply.redactedThinking(block.data);
        else if (block.type === 'tool_use') {
          toolIds.set(event.index, block.id);
          yield reply.toolStart(block.id, block.name);
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') yield reply.text(delta.text);
        else if (delta.type === 'thinking_delta') yield reply.thinking(delta.thinking);
        else if (delta.type === 'signature_delta') reply.thinkingSignature(delta.signature);
        else if (delta.type === 'input_json_delta') {
          const id = toolIds.get(event.index);
          const out = id ? reply.toolDelta(id, delta.partial_json) : undefined;
          if (!out) throw new WireProtocolError(`input_json_delta for block ${event.index}, which is not an open tool_use block`);
          yield out;
        }
        break;
      }
      case 'content_block_stop': {
        const id = toolIds.get(event.index);
        if (id && reply.isOpen(id)) yield reply.toolEnd(id)!;
        break;
      }
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason;
        reply.addUsage(usageOf(event.usage as Partial<Anthropic.Messages.Usage>));
        break;
      case 'message_stop':
        yield* reply.finish(stopReasonOf(stopReason));
        return;
      default:
        break;
    }
  }
  throw new WireProtocolError('the stream ended before message_stop');
}

/** A non-streamed Messages API response → the internal response. */
export function translateMessage(message: Anthropic.Messages.Message): ProviderResponse {
  const stopReason = stopReasonOf(message.stop_reason);
  const content: ProviderResponse['message']['content'] = [];
  const blocks = message.content;
  blocks.forEach((block, i) => {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'thinking') content.push({ type: 'thinking', text: block.thinking, signature: block.signature });
    else if (block.type === 'redacted_thinking') content.push({ type: 'thinking', text: '', redacted: true, data: block.data });
    else if (block.type === 'tool_use') {
      // A reply that hit max_tokens inside its last tool call carries whatever input fit.
      const cutOff = stopReason === 'max_tokens' && i === blocks.length - 1;
      const parsed = parseToolInput(JSON.stringify(block.input ?? {}), cutOff);
      const part: ToolCallPart = { type: 'tool_call', id: block.id, name: block.name, input: parsed.input };
      if (parsed.error) part.inputError = parsed.error;
      content.push(part);
    }
  });
  const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, ...usageOf(message.usage) };
  return { message: { role: 'assistant', content, meta: { model: message.model, stopReason, time: Date.now() } }, usage, stopReason };
}
