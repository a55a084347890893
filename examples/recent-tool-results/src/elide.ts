import type { Message, ToolCallPart, ToolMessage, ToolResultPart } from '@assistant-cli/assistant';

/** How old tool results are cut down. */
export interface ElideOptions {
  /** Tool results kept verbatim, counting back from the newest. */
  keep: number;
  /** Characters of an elided result's text kept as a preview. */
  previewChars: number;
}

const INPUT_CHARS = 120;

function callsById(messages: readonly Message[]): Map<string, ToolCallPart> {
  const calls = new Map<string, ToolCallPart>();
  for (const message of messages)
    if (message.role === 'assistant') for (const part of message.content) if (part.type === 'tool_call') calls.set(part.id, part);
  return calls;
}

function note(result: ToolResultPart, call: ToolCallPart | undefined, previewChars: number): ToolResultPart {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  const input = call ? JSON.stringify(call.input) : '';
  const what = call ? `${call.name}(${input.length > INPUT_CHARS ? `${input.slice(0, INPUT_CHARS)}…` : input})` : 'a tool call';
  const preview = text.slice(0, previewChars).trimEnd();
  const body =
    `[Older tool result elided to save context: ${what} ${result.isError ? 'failed with' : 'returned'} ${text.length} characters.` +
    (preview ? ` It began:\n${preview}${text.length > preview.length ? '\n…' : ''}]` : ']') +
    ' Call the tool again if you need the whole output.';
  // Same input, same note: once a result is elided its message stays byte-identical, so the
  // request prefix before the newest elision keeps hitting the prompt cache.
  return { ...result, content: [{ type: 'text', text: body }] };
}

/**
 * The history with every tool result but the newest `keep` replaced by a short note naming the
 * call, its size and the start of its output. Call/result pairs and every other message are kept
 * as they are; the input is never changed.
 */
export function elideOldResults(messages: readonly Message[], options: ElideOptions): { messages: Message[]; elided: number } {
  const total = messages.reduce((n, m) => n + (m.role === 'tool' ? m.content.length : 0), 0);
  let toElide = Math.max(0, total - options.keep);
  if (toElide === 0) return { messages: [...messages], elided: 0 };
  const calls = callsById(messages);
  const elided = toElide;
  const out = messages.map((message): Message => {
    if (message.role !== 'tool' || toElide === 0) return message;
    const content = message.content.map((result) => (toElide-- > 0 ? note(result, calls.get(result.toolCallId), options.previewChars) : result));
    return { ...message, content } satisfies ToolMessage;
  });
  return { messages: out, elided };
}
