import { typoDistance } from '../../kernel/close-matches.js';
import { AssistantError } from '../../kernel/errors.js';

/**
 * Refuses a prompt that is most likely a mistyped subcommand (`assistant sesions list`): its first
 * word is close to a command name and every word came as its own shell word, as a command line does.
 * A real prompt is usually quoted (one word with spaces); `--` before it always makes it a prompt.
 * Sending a typo to the model would cost a request and store a session nobody asked for. Short
 * names allow one edit, so a word like "hello" stays a prompt.
 */
export function refuseMistypedCommand(words: string[], commands: readonly string[] | (() => readonly string[])): void {
  const [first] = words;
  if (first === undefined || words.some((word) => /\s/.test(word) || word === '')) return;
  // A list that costs something to make (the plugins' commands) is made only for such a prompt.
  const names = [...new Set([...(typeof commands === 'function' ? commands() : commands), 'help'])];
  if (names.includes(first)) return;
  const matches = names.filter((name) => typoDistance(first, name) <= (name.length >= 7 ? 2 : 1));
  if (!matches.length) return;
  throw new AssistantError(
    'ASSISTANT_USAGE',
    `unknown command "${first}"; did you mean ${matches.map((m) => `"${m}"`).join(' or ')}? ` +
      `To send it to the model as a prompt, quote it or put -- before it: assistant -p -- ${words.join(' ')}`,
  );
}
