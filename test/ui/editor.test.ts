import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TextBuffer } from '../../dist/plugins/ui-terminal/editor/buffer.js';
import { renderEditor } from '../../dist/plugins/ui-terminal/editor/view.js';
import { applyEditingKey } from '../../dist/plugins/ui-terminal/editor/keymap.js';
import { PromptHistory } from '../../dist/plugins/ui-terminal/editor/history.js';
import { FileIndex, completionContext, matchCommands, matchFiles } from '../../dist/plugins/ui-terminal/editor/complete.js';
import { createStyle } from '../../dist/plugins/ui-terminal/terminal/style.js';
import { makeProject, tempDir } from '../support/project.js';

const plain = createStyle(false);

describe('text buffer', () => {
  it('edits around the cursor, by character and by word, across surrogate pairs', () => {
    const b = new TextBuffer();
    b.insert('hello world');
    b.wordLeft();
    expect(b.cursor).toBe(6);
    b.deleteWordBack();
    expect(b.text).toBe('world');
    b.end();
    b.insert(' 👍');
    b.backspace();
    expect(b.text).toBe('world ');
    b.home();
    b.deleteForward();
    expect(b.text).toBe('orld ');
    b.killToEnd();
    expect(b.text).toBe('');
  });

  it('moves between lines keeping the column, and reports the first and last line for history', () => {
    const b = new TextBuffer();
    b.set('first line\nab\nthird line', 4);
    expect(b.onFirstLine).toBe(true);
    expect(b.down()).toBe(true);
    expect(b.cursor).toBe(13); // end of "ab": the column is clamped
    expect(b.down()).toBe(true);
    expect(b.onLastLine).toBe(true);
    expect(b.down()).toBe(false);
    expect(b.up()).toBe(true);
    expect(b.up()).toBe(true);
    expect(b.up()).toBe(false);
  });

  it('kills to the start of the line and joins lines with Ctrl+K at a line end', () => {
    const b = new TextBuffer();
    b.set('one\ntwo', 3);
    b.killToEnd();
    expect(b.text).toBe('onetwo');
    b.set('one\ntwo three', 8);
    b.killToStart();
    expect(b.text).toBe('one\nthree');
  });
});

describe('editing keys', () => {
  it('apply readline bindings to the buffer and leave the app\'s keys alone', () => {
    const b = new TextBuffer();
    expect(applyEditingKey(b, { type: 'paste', text: 'one two\nthree' })).toBe(true);
    expect(applyEditingKey(b, { type: 'ctrl', letter: 'w' })).toBe(true);
    expect(b.text).toBe('one two\n');
    expect(applyEditingKey(b, { type: 'ctrl', letter: 'a' })).toBe(true);
    expect(applyEditingKey(b, { type: 'key', name: 'newline' })).toBe(true);
    expect(b.text).toBe('one two\n\n');
    for (const key of [{ type: 'key', name: 'enter' }, { type: 'key', name: 'tab' }, { type: 'ctrl', letter: 'c' }] as const) expect(applyEditingKey(b, key)).toBe(false);
  });
});

describe('editor view', () => {
  it('puts the cursor where the text is, wrapping long lines at the edge', () => {
    const b = new TextBuffer();
    b.set('abcdefghij\nxy', 12);
    const view = renderEditor(b, plain, 8, 10);
    expect(view.lines).toEqual(['› abcdef', '  ghij', '  xy']);
    expect(view.cursor).toEqual({ row: 2, col: 3 });
  });

  it('shows a placeholder when empty and a window around the cursor when tall', () => {
    expect(renderEditor(new TextBuffer(), plain, 40, 5, 'Ask anything').lines).toEqual(['› Ask anything']);
    const b = new TextBuffer();
    b.set(Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n'), 0);
    const view = renderEditor(b, plain, 40, 5);
    expect(view.lines).toHaveLength(5);
    expect(view.cursor.row).toBe(0);
    expect(view.lines[4]).toBe('  ↓ 16 more lines');
  });
});

describe('prompt history', () => {
  it('persists prompts per project across sessions, multi-line prompts whole, 0600', async () => {
    const dir = tempDir();
    const file = join(dir, 'data', 'history.jsonl');
    const first = new PromptHistory(file, '/projects/a');
    await first.load();
    await first.add('fix the test\nand the lint');
    await first.add('run it');
    await first.add('run it'); // consecutive duplicates are kept once
    await new PromptHistory(file, '/projects/b').add('other project');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const next = new PromptHistory(file, '/projects/a');
    await next.load();
    expect(next.list).toEqual(['fix the test\nand the lint', 'run it']);
    expect(next.previous('draft')).toBe('run it');
    expect(next.previous('ignored')).toBe('fix the test\nand the lint');
    expect(next.previous('ignored')).toBeUndefined();
    expect(next.next()).toBe('run it');
    expect(next.next()).toBe('draft');
  });

  it('skips a torn last line and trims the file when it grows past twice the limit', async () => {
    const dir = tempDir();
    const file = join(dir, 'history.jsonl');
    const lines = Array.from({ length: 9 }, (_, i) => JSON.stringify({ project: '/p', time: i, text: `prompt ${i}` }));
    writeFileSync(file, lines.join('\n') + '\n{"project":"/p","te');
    const history = new PromptHistory(file, '/p', 4);
    await history.load();
    expect(history.list).toEqual(['prompt 5', 'prompt 6', 'prompt 7', 'prompt 8']);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('starts empty when the history file cannot be read', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'history.jsonl')); // a folder where the file should be
    const history = new PromptHistory(join(dir, 'history.jsonl'), '/p');
    await expect(history.load()).resolves.toBeUndefined();
    expect(history.list).toEqual([]);
    await expect(history.add('still typed')).rejects.toThrow();
    expect(history.list).toEqual(['still typed']);
  });
});

describe('completion', () => {
  it('finds a /command at the start and an @path under the cursor', () => {
    expect(completionContext('/co', 3)).toEqual({ kind: 'command', fragment: 'co', start: 0, end: 3 });
    expect(completionContext('/cost now', 9)).toBeUndefined();
    expect(completionContext('look at @src/ma please', 15)).toEqual({ kind: 'file', fragment: 'src/ma', start: 8, end: 15 });
    expect(completionContext('mail me@example.com', 19)).toBeUndefined();
  });

  it('ranks commands by prefix, then substring', () => {
    const commands = [{ name: 'config', description: '' }, { name: 'cost', description: '' }, { name: 'compact', description: '', usage: '[focus]' }, { name: 'details', description: '' }];
    expect(matchCommands('co', commands).map((s) => s.value)).toEqual(['/compact', '/config', '/cost']);
    expect(matchCommands('ta', commands).map((s) => s.value)).toEqual(['/details']);
    expect(matchCommands('comp', commands)[0]!.label).toBe('/compact [focus]');
  });

  it('lists project files once, skipping dependencies, and ranks file-name matches first', async () => {
    const dir = makeProject({
      'src/main.ts': '',
      'src/util/format.ts': '',
      'docs/main-guide.md': '',
      'node_modules/pkg/main.js': '',
      '.git/HEAD': '',
    });
    const index = new FileIndex(dir);
    expect(index.ready).toBeUndefined();
    const files = await index.load();
    expect(files).toContain('src/util/format.ts');
    expect(files).toContain('src/');
    expect(files.some((f) => f.startsWith('node_modules') || f.startsWith('.git'))).toBe(false);
    expect(matchFiles('main', files).map((s) => s.value)).toEqual(['@src/main.ts', '@docs/main-guide.md']);
    expect(matchFiles('util/f', files).map((s) => s.value)).toEqual(['@src/util/format.ts']);
  });
});
