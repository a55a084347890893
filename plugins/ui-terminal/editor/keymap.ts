import type { Key } from '../terminal/keys.js';
import type { TextBuffer } from './buffer.js';

const CTRL_EDITS: Record<string, (b: TextBuffer) => void> = {
  a: (b) => b.home(),
  e: (b) => b.end(),
  b: (b) => b.left(),
  f: (b) => b.right(),
  k: (b) => b.killToEnd(),
  u: (b) => b.killToStart(),
  w: (b) => b.deleteWordBack(),
  d: (b) => b.deleteForward(),
};

const KEY_EDITS: Partial<Record<Extract<Key, { type: 'key' }>['name'], (b: TextBuffer) => void>> = {
  newline: (b) => b.insert('\n'),
  backspace: (b) => b.backspace(),
  delete: (b) => b.deleteForward(),
  left: (b) => b.left(),
  right: (b) => b.right(),
  home: (b) => b.home(),
  end: (b) => b.end(),
  'word-left': (b) => b.wordLeft(),
  'word-right': (b) => b.wordRight(),
  'word-backspace': (b) => b.deleteWordBack(),
  'word-delete': (b) => b.deleteWordForward(),
};

/** Applies a key that only edits the text (readline's bindings); false for keys the app handles. */
export function applyEditingKey(buffer: TextBuffer, key: Key): boolean {
  const edit = key.type === 'ctrl' ? CTRL_EDITS[key.letter] : key.type === 'key' ? KEY_EDITS[key.name] : undefined;
  if (key.type === 'text' || key.type === 'paste') buffer.insert(key.text);
  else if (edit) edit(buffer);
  else return false;
  return true;
}
