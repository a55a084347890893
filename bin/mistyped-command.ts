import { AssistantError } from '../core/kernel/errors.js';

/**
 * Refuses a prompt that is most likely a mistyped subcommand (`assistant sesions list`): its first
 * word is close to a command name and every word came as its own shell word, as a command line does.
 * A real prompt is usually quoted (one word with spaces); `--` before it always makes it a prompt.
 * Sending a typo to the model would cost a request and store a session nobody asked for.
 */
export function refuseMistypedCommand(words: string[], commands: string[]): void {
  const [first] = words;
  if (first === undefined || words.some((word) => /\s/.test(word) || word === '')) return;
  const names = [...new Set([...commands, 'help'])];
  if (names.includes(first)) return;
  const matches = names.filter((name) => typoDistance(first, name) <= (name.length >= 7 ? 2 : 1));
  if (!matches.length) return;
  throw new AssistantError(
    'ASSISTANT_USAGE',
    `unknown command "${first}"; did you mean ${matches.map((m) => `"${m}"`).join(' or ')}? ` +
      `To send it to the model as a prompt, quote it or put -- before it: assistant -p -- ${words.join(' ')}`,
  );
}

/**
 * Edit distance, case-insensitive, where swapping two neighbours counts as one edit (`trsut`):
 * the typos hands make. Short names allow one edit, so a word like "hello" stays a prompt.
 */
function typoDistance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}
