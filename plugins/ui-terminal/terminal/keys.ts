/** Named keys the editor understands. */
export type KeyName =
  | 'enter'
  | 'newline'
  | 'tab'
  | 'shift-tab'
  | 'backspace'
  | 'delete'
  | 'escape'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'page-up'
  | 'page-down'
  | 'word-left'
  | 'word-right'
  | 'word-backspace'
  | 'word-delete';

/** One decoded keystroke (or a paste). */
export type Key =
  | { type: 'key'; name: KeyName }
  /** Ctrl plus a letter, lower case: `c` for Ctrl+C. */
  | { type: 'ctrl'; letter: string }
  /** Printable text typed at the keyboard. */
  | { type: 'text'; text: string }
  /** Pasted text, newlines kept (bracketed paste, or a multi-line burst from a terminal without it). */
  | { type: 'paste'; text: string };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

const CSI_LETTERS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', Z: 'shift-tab' };
const CSI_TILDE: Record<string, KeyName> = { '1': 'home', '7': 'home', '4': 'end', '8': 'end', '3': 'delete', '5': 'page-up', '6': 'page-down' };
const META: Record<string, KeyName> = { '\r': 'newline', '\n': 'newline', '\x7f': 'word-backspace', '\b': 'word-backspace', b: 'word-left', f: 'word-right', d: 'word-delete' };

const key = (name: KeyName): Key => ({ type: 'key', name });
const normalizeNewlines = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * Turns raw terminal input into keys. Escape sequences split across reads are kept until complete;
 * a lone ESC stays pending until `flush()` (call it after a short pause: that is how a real Esc
 * differs from the start of a sequence).
 */
export class KeyDecoder {
  private buffer = '';
  private paste: string | undefined;

  /** True when input is waiting for more bytes (an incomplete sequence or a lone ESC). */
  get pending(): boolean {
    return this.buffer.length > 0 && this.paste === undefined;
  }

  push(chunk: string): Key[] {
    const input = this.buffer + chunk;
    this.buffer = '';
    // A terminal without bracketed paste sends a pasted block as one burst of text and CRs.
    if (this.paste === undefined && !input.includes('\x1b') && /[\r\n]./s.test(input) && /[^\r\n]/.test(input))
      return [{ type: 'paste', text: normalizeNewlines(input) }];
    return this.decode(input);
  }

  /** Resolves whatever is pending: a lone ESC becomes the Escape key. */
  flush(): Key[] {
    const rest = this.buffer;
    this.buffer = '';
    if (!rest) return [];
    return rest === '\x1b' ? [key('escape')] : this.decode(rest, true);
  }

  private decode(input: string, final = false): Key[] {
    const keys: Key[] = [];
    let text = '';
    const pushText = () => {
      if (text) keys.push({ type: 'text', text });
      text = '';
    };
    let i = 0;
    while (i < input.length) {
      if (this.paste !== undefined) {
        const end = input.indexOf(PASTE_END, i);
        if (end < 0) {
          // Keep a possible partial end marker for the next read.
          const keep = Math.min(PASTE_END.length - 1, input.length - i);
          this.paste += input.slice(i, input.length - keep);
          this.buffer = input.slice(input.length - keep);
          return keys;
        }
        keys.push({ type: 'paste', text: normalizeNewlines(this.paste + input.slice(i, end)) });
        this.paste = undefined;
        i = end + PASTE_END.length;
        continue;
      }
      const ch = input[i]!;
      if (ch === '\x1b') {
        pushText();
        const consumed = this.escape(input, i, keys, final);
        if (consumed === 0) {
          this.buffer = input.slice(i);
          return keys;
        }
        i += consumed;
        continue;
      }
      const code = ch.charCodeAt(0);
      if (code < 32 || code === 127) {
        pushText();
        if (ch === '\r') {
          keys.push(key('enter'));
          if (input[i + 1] === '\n') i++;
        } else if (ch === '\n') keys.push(key('newline'));
        else if (ch === '\t') keys.push(key('tab'));
        else if (ch === '\x7f' || ch === '\b') keys.push(key('backspace'));
        else if (code >= 1 && code <= 26) keys.push({ type: 'ctrl', letter: String.fromCharCode(code + 96) });
        i++;
        continue;
      }
      text += ch;
      i++;
    }
    pushText();
    return keys;
  }

  /** Decodes the sequence starting at `input[i]` (an ESC); returns the characters used, 0 when incomplete. */
  private escape(input: string, i: number, keys: Key[], final: boolean): number {
    const next = input[i + 1];
    if (next === undefined) {
      if (!final) return 0;
      keys.push(key('escape'));
      return 1;
    }
    if (input.startsWith(PASTE_START, i)) {
      this.paste = '';
      return PASTE_START.length;
    }
    if (next === '[') {
      let j = i + 2;
      while (j < input.length && !/[@-~]/.test(input[j]!)) j++;
      if (j >= input.length) return final ? input.length - i : 0;
      const params = input.slice(i + 2, j);
      const name = csiKey(params, input[j]!);
      if (name) keys.push(key(name));
      return j - i + 1;
    }
    if (next === 'O') {
      const last = input[i + 2];
      if (last === undefined) return final ? 2 : 0;
      const name = CSI_LETTERS[last];
      if (name) keys.push(key(name));
      return 3;
    }
    if (next === '\x1b') {
      keys.push(key('escape'));
      return 1;
    }
    const meta = META[next];
    if (meta) keys.push(key(meta));
    return 2;
  }
}

/** Maps a CSI sequence (parameters + final byte) to a key, or nothing for sequences we ignore. */
function csiKey(params: string, final: string): KeyName | undefined {
  const [first = '', modifier = ''] = params.split(';');
  const withMod = modifier !== '' && modifier !== '1';
  if (final === 'C' || final === 'D') {
    // Ctrl or Alt + arrow moves by word.
    if (withMod && (modifier === '3' || modifier === '5' || modifier === '9')) return final === 'C' ? 'word-right' : 'word-left';
    return CSI_LETTERS[final];
  }
  if (CSI_LETTERS[final]) return CSI_LETTERS[final];
  if (final === '~') {
    // xterm modifyOtherKeys: 27;<mod>;13~ is a modified Enter.
    if (first === '27' && params.endsWith(';13')) return 'newline';
    return CSI_TILDE[first];
  }
  if (final === 'u') {
    // The kitty keyboard protocol: <code>;<modifier>u.
    if (first === '13') return withMod ? 'newline' : 'enter';
    if (first === '27') return 'escape';
    if (first === '9') return withMod ? 'shift-tab' : 'tab';
    if (first === '127') return withMod ? 'word-backspace' : 'backspace';
  }
  return undefined;
}
