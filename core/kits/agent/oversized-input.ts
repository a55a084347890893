import type { AssistantMessage, ToolCallPart } from '../../types/messages.js';

/**
 * The largest tool-call input kept in the history. A Write of 100 MB would otherwise be stored in
 * the session and sent with every later request, so the session could never be continued; real
 * models cannot produce inputs near this size, and the file tools' own caps (maxWriteBytes, 10 MiB
 * by default) refuse smaller ones with their own message.
 */
export const MAX_TOOL_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * Replaces every tool call whose input is over the limit with an empty input flagged as unusable,
 * so the call is refused before it runs and the history keeps a few bytes instead of the input.
 */
export function dropOversizedInputs<M extends AssistantMessage>(message: M, limit = MAX_TOOL_INPUT_BYTES): M {
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool_call') return part;
    const size = inputSize(part);
    if (size <= limit) return part;
    changed = true;
    return {
      ...part,
      input: {},
      inputError: `the input was ${size} bytes, over the ${limit}-byte limit for one tool call; it was dropped. Write large content in smaller parts`,
    } satisfies ToolCallPart;
  });
  return changed ? { ...message, content } : message;
}

/** Bytes of the input as JSON; strings are counted by their UTF-8 length without building the whole text. */
function inputSize(part: ToolCallPart): number {
  let total = 0;
  const visit = (value: unknown): void => {
    if (total > MAX_TOOL_INPUT_BYTES * 2) return;
    if (typeof value === 'string') total += Buffer.byteLength(value) + 2;
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) (total += key.length + 3), visit(item);
    else total += String(value).length;
  };
  visit(part.input);
  return total;
}
