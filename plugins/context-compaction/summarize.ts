import { readFileSync } from 'node:fs';
import {
  ContextError,
  messageText,
  type ContextView,
  type Kernel,
  type Message,
  type TextPart,
  type TodoItem,
  type UserMessage,
} from '../../core/index.js';
import { COMPACTION_ERRORS } from './errors.js';
import type { SummaryPrefix } from './summary-prefix.js';

/** Marks each user message carried word for word inside a summary message. */
const PRESERVED_PREFIX = '[An earlier message from the user, kept word for word]\n';
const SUMMARY_HEADER = '[Summary of the earlier part of this conversation, written when it was compacted]\n\n';

let template: string | undefined;
const summaryTemplate = () => (template ??= readFileSync(new URL('./summary-prompt.txt', import.meta.url), 'utf8').trim());

/** What the summary instruction says beyond the template. */
export interface InstructionContext {
  /** Messages that stay verbatim after the summary (at the end of the request), or 0 when the request holds only what is summarized. */
  keptCount: number;
  keptPreview?: string;
  focus?: string;
  todos: readonly TodoItem[];
}

/** The user message that asks for the summary. */
export function summaryInstruction(context: InstructionContext): UserMessage {
  const scope = context.keptCount
    ? `The last ${context.keptCount} messages (from the one beginning "${context.keptPreview ?? ''}") stay in context word for word after your summary, so summarize everything before them and mention them only as needed for continuity.`
    : 'Summarize all of the conversation above.';
  const parts = [summaryTemplate().replace('{{scope}}', scope)];
  if (context.todos.length)
    parts.push(`The current plan (todo list), which is kept as it is:\n${context.todos.map((t) => `- [${t.status}] ${t.content}`).join('\n')}`);
  if (context.focus) parts.push(`The user asked the summary to focus on: ${context.focus}`);
  return { role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }], meta: { origin: 'system-note', tag: 'compaction-request' } };
}

/** The user's own words in `messages`, in order: typed messages, steering notes, and those carried by earlier summaries. */
export function preservedUserTexts(messages: readonly Message[]): string[] {
  const out: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const origin = message.meta?.origin;
    if (origin === 'summary') {
      for (const part of message.content.slice(1)) if (part.type === 'text') out.push(part.text.slice(PRESERVED_PREFIX.length));
    } else if (origin === undefined || origin === 'user' || origin === 'steering') {
      const images = message.content.filter((p) => p.type === 'image').length;
      out.push(messageText(message) + (images ? `\n[${images} image(s) attached; not kept]` : ''));
    }
  }
  return out;
}

/** The message that replaces the summarized turns: the summary, then every user message word for word. */
export function summaryMessage(summary: string, userTexts: readonly string[]): UserMessage {
  const content: TextPart[] = [{ type: 'text', text: SUMMARY_HEADER + summary.trim() }];
  for (const text of userTexts) content.push({ type: 'text', text: PRESERVED_PREFIX + text });
  return { role: 'user', content, meta: { origin: 'summary', time: Date.now() } };
}

/** A summary request: a prefix (the last turn request's where it can be reused), `messages` ending with the instruction. */
export interface SummaryCall {
  view: ContextView;
  prefix: Omit<SummaryPrefix, 'reused'>;
  messages: Message[];
  /** Output budget of the summary itself; a carried thinking budget comes on top. */
  maxTokens: number;
  agentId?: string;
  signal?: AbortSignal;
}

/** Asks the model for the summary (through `providerRequest`, recorded in the ledger); returns its text. */
export async function requestSummary(kernel: Kernel, call: SummaryCall): Promise<string> {
  const provider = kernel.provider();
  const { system, tools, cache, thinkingBudget } = call.prefix;
  const request = await kernel.hooks.providerRequest.promise({
    model: call.view.model,
    system,
    tools,
    messages: call.messages,
    maxTokens: call.maxTokens + (thinkingBudget ?? 0),
    cache,
    ...(thinkingBudget ? { thinkingBudget } : {}),
  });
  const response = await provider.complete(request, call.signal);
  const budget = { window: call.view.budget.window, outputReserve: request.maxTokens };
  kernel.budget.record({ ...request, budget, provider: provider.name, agentId: call.agentId, purpose: 'compaction', usage: response.usage });
  // Sub-agents' summaries count toward the session's totals too, like their turns.
  await kernel.session?.record({ type: 'usage', usage: response.usage, model: request.model });
  const text = messageText(response.message).trim();
  if (!text)
    throw new ContextError(COMPACTION_ERRORS.ASSISTANT_CONTEXT_COMPACTION_FAILED, `the summary request returned no text (stop reason ${response.stopReason})`, {
      plugin: 'context-compaction',
    });
  return text;
}
