import type { ToolResultPart } from '../types/messages.js';

/** A tool result's text, parts joined by newlines (an image shows as `[image]`). */
export function resultText(result: ToolResultPart): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
