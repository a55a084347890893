import type { ToolResultPart, UserMessage } from '../../../core/index.js';

/** The tag of the message a `!command` adds to the conversation. */
export const SHELL_NOTE_TAG = 'ui-shell';

/** The id prefix of the calls `!command` makes, so the transcript can show more of their output. */
export const SHELL_CALL_PREFIX = 'user-shell-';

/** Characters of output the model is given; the rest is cut with a note (the Bash tool caps its output too). */
const MAX_OUTPUT_CHARS = 30_000;

const resultText = (result: ToolResultPart) => result.content.map((p) => (p.type === 'text' ? p.text : `[${p.mediaType}]`)).join('\n');

/**
 * The message that tells the model what the user ran with `!` and what came of it. It is a user
 * message (the model reads it with the next prompt), marked so it is not taken for a typed prompt.
 */
export function shellNote(command: string, result: ToolResultPart): UserMessage {
  let output = resultText(result);
  if (output.length > MAX_OUTPUT_CHARS) output = `${output.slice(0, MAX_OUTPUT_CHARS)}\n[cut: ${output.length - MAX_OUTPUT_CHARS} more characters]`;
  const text = [
    'The user ran a shell command in the terminal (with "!"); for your information, no reply is needed until their next prompt.',
    `<shell-command>${command}</shell-command>`,
    `<shell-output${result.isError ? ' failed="true"' : ''}>\n${output}\n</shell-output>`,
  ].join('\n');
  return { role: 'user', content: [{ type: 'text', text }], meta: { time: Date.now(), origin: 'system-note', tag: SHELL_NOTE_TAG } };
}

/** The command of a `!command` note, to show it again (a resumed session). */
export function shellNoteCommand(message: UserMessage): string | undefined {
  if (message.meta?.tag !== SHELL_NOTE_TAG) return undefined;
  const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  return /<shell-command>([\s\S]*?)<\/shell-command>/.exec(text)?.[1];
}
