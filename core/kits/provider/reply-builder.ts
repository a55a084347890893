import { emptyUsage, type AssistantMessage, type StopReason, type ThinkingPart, type ToolCallPart, type Usage } from '../../types/messages.js';
import type { ProviderStreamEvent } from '../../types/provider.js';
import { parseToolInput } from './tool-input.js';

interface OpenToolCall {
  part: ToolCallPart;
  json: string;
}

/**
 * Builds the assistant message of one reply from wire deltas while producing the normalized events
 * to yield. Providers call it as their wire events arrive; it keeps part order, thinking
 * signatures and redacted data, and checks every tool call's input when the call ends.
 */
export class ReplyBuilder {
  private readonly parts: AssistantMessage['content'] = [];
  private readonly open = new Map<string, OpenToolCall>();
  private readonly usage: Usage = emptyUsage();

  constructor(private readonly model: string) {}

  /** Appends text to the current text part (or starts one). */
  text(delta: string): ProviderStreamEvent {
    const last = this.parts[this.parts.length - 1];
    if (last?.type === 'text') last.text += delta;
    else this.parts.push({ type: 'text', text: delta });
    return { type: 'text_delta', text: delta };
  }

  /** Starts a new thinking part (each carries its own signature). */
  beginThinking(): void {
    this.parts.push({ type: 'thinking', text: '' });
  }

  /** Appends visible reasoning to the current thinking part (or starts one). */
  thinking(delta: string): ProviderStreamEvent {
    this.currentThinking().text += delta;
    return { type: 'thinking_delta', text: delta };
  }

  /** The signature the provider needs back with the current thinking part. */
  thinkingSignature(signature: string): void {
    const part = this.currentThinking();
    part.signature = (part.signature ?? '') + signature;
  }

  /** Reasoning the provider redacted: opaque data that is only ever echoed back. */
  redactedThinking(data: string): void {
    this.parts.push({ type: 'thinking', text: '', redacted: true, data });
  }

  /** A tool call begins: records it and returns the event announcing it. */
  toolStart(id: string, name: string): ProviderStreamEvent {
    // The part takes its place now, so parts keep the order the model produced them in.
    const part: ToolCallPart = { type: 'tool_call', id, name, input: {} };
    this.parts.push(part);
    this.open.set(id, { part, json: '' });
    return { type: 'tool_call_start', id, name };
  }

  /** More of a tool call's JSON input; undefined for an unknown call id. */
  toolDelta(id: string, partialJson: string): ProviderStreamEvent | undefined {
    const call = this.open.get(id);
    if (!call) return undefined;
    call.json += partialJson;
    return { type: 'tool_call_delta', id, partialJson };
  }

  /** True while a tool call has started and not ended. */
  isOpen(id: string): boolean {
    return this.open.has(id);
  }

  /** Ends a tool call; `cutOff` marks input known to be incomplete (the reply hit max_tokens inside it). */
  toolEnd(id: string, cutOff = false): ProviderStreamEvent | undefined {
    const call = this.open.get(id);
    if (!call) return undefined;
    this.open.delete(id);
    const parsed = parseToolInput(call.json, cutOff);
    const { part } = call;
    part.input = parsed.input;
    if (parsed.error) part.inputError = parsed.error;
    return { type: 'tool_call_end', id, name: part.name, input: parsed.input, ...(parsed.error ? { inputError: parsed.error } : {}) };
  }

  /** Merges usage figures as the provider reports them (some at the start, some at the end). */
  addUsage(usage: Partial<Usage>): void {
    for (const key of Object.keys(usage) as (keyof Usage)[]) if (usage[key] !== undefined) this.usage[key] = usage[key]!;
  }

  /**
   * Ends the reply: tool calls still open are closed as cut off (a `max_tokens` stop inside a call
   * leaves it incomplete even when its JSON happens to parse), then the usage and stop events.
   */
  finish(stopReason: StopReason): ProviderStreamEvent[] {
    const events: ProviderStreamEvent[] = [];
    for (const id of [...this.open.keys()]) events.push(this.toolEnd(id, true)!);
    const usage = { ...this.usage };
    events.push({ type: 'usage', usage });
    events.push({ type: 'stop', reason: stopReason, message: this.message(stopReason), usage });
    return events;
  }

  /** The message so far. */
  message(stopReason?: StopReason): AssistantMessage {
    const content = this.parts.map((part) => ({ ...part }));
    return { role: 'assistant', content, meta: { model: this.model, ...(stopReason ? { stopReason } : {}), time: Date.now() } };
  }

  private currentThinking(): ThinkingPart {
    const last = this.parts[this.parts.length - 1];
    if (last?.type === 'thinking' && !last.redacted) return last;
    const part: ThinkingPart = { type: 'thinking', text: '' };
    this.parts.push(part);
    return part;
  }
}
