import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { kernelFor, runOne, text } from './helpers.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8ffff3f0005fe02fea7d6a4a90000000049454e44ae426082', 'hex');

let kernel: Kernel;
let root: string;
beforeAll(async () => {
  root = makeProject({
    'notes.txt': 'alpha\nbeta\ngamma\n',
    'long.txt': Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
    'empty.txt': '',
    'src/app.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n',
    '.gitignore': 'dist/\n*.log\n',
    'dist/bundle.js': 'built',
    'debug.log': 'noise',
    'node_modules/dep/index.js': 'dep',
  });
  writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  writeFileSync(join(root, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
  writeFileSync(join(root, 'pixel.png'), PNG);
  symlinkSync(join(root, 'notes.txt'), join(root, 'link.txt'));
  ({ kernel } = await kernelFor(root));
});
afterAll(() => kernel.shutdown());

const read = (input: Record<string, unknown>) => runOne(kernel, 'Read', input);

describe('Read', () => {
  it('shows numbered lines and records the checksum', async () => {
    const result = await read({ file_path: 'notes.txt' });
    expect(text(result)).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    expect(result.metadata).toMatchObject({ file: join(root, 'notes.txt'), totalLines: 3, lines: 3, encoding: 'utf8' });
    expect(String(result.metadata?.checksum)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads ranges and says how to read on past the default cap', async () => {
    const head = await read({ file_path: join(root, 'long.txt') });
    expect(text(head)).toContain('  2000\tline 2000');
    expect(text(head)).not.toContain('line 2001');
    expect(text(head)).toContain('(Showing lines 1-2000 of 2500. Call Read with offset=2001 to read on.)');
    const range = await read({ file_path: 'long.txt', offset: 2499, limit: 5 });
    expect(text(range)).toBe('  2499\tline 2499\n  2500\tline 2500\n\n(Showing lines 2499-2500 of 2500.)');
    // `lines` counts what was shown, for the one-line summary the UI prints.
    expect([head.metadata?.lines, range.metadata?.lines]).toEqual([2000, 2]);
    const past = await read({ file_path: 'long.txt', offset: 3000 });
    expect(text(past)).toContain('offset 3000 is past the end of long.txt, which has 2500 lines');
  });

  it('handles empty, Latin-1, binary and image files', async () => {
    expect(text(await read({ file_path: 'empty.txt' }))).toBe('empty.txt is empty.');
    const latin = await read({ file_path: 'latin1.txt' });
    expect(text(latin)).toContain('1\tcafé');
    expect(text(latin)).toContain('decoded as Latin-1');
    const blob = await read({ file_path: 'blob.bin' });
    expect(text(blob)).toContain('blob.bin is a binary file (8 bytes, looks like an ELF executable or library)');
    const image = await read({ file_path: 'pixel.png' });
    expect(image.content[1]).toEqual({ type: 'image', mediaType: 'image/png', data: PNG.toString('base64') });
  });

  it('reads a 10 MB file and refuses a larger one', async () => {
    const line = 'x'.repeat(1023) + '\n';
    writeFileSync(join(root, 'ten.txt'), line.repeat(10 * 1024));
    const ten = await read({ file_path: 'ten.txt', offset: 10_240, limit: 1 });
    expect(ten.isError).toBeUndefined();
    expect(text(ten)).toContain(' 10240\txxx');
    expect(ten.metadata?.totalLines).toBe(10_240);
    writeFileSync(join(root, 'big.txt'), line.repeat(10 * 1024 + 1));
    const big = await read({ file_path: 'big.txt' });
    expect(text(big)).toContain('Read handles files up to 10 MB');
  });

  it('refuses missing files, folders and malformed paths cleanly', async () => {
    expect(text(await read({ file_path: 'nope.txt' }))).toContain('File does not exist: nope.txt');
    expect(text(await read({ file_path: 'src' }))).toContain('src is a directory');
    if (process.platform !== 'win32') expect(text(await read({ file_path: '/dev/zero' }))).toContain('/dev/zero is not a regular file');
    const nul = await read({ file_path: 'notes.txt\0.png' });
    expect(nul.metadata?.code).toBe('ASSISTANT_TOOL_PATH_INVALID');
    expect(text(nul)).toContain('NUL byte');
    // Write and Edit refuse it on the main thread (their `prepare` resolves the path first).
    const write = await runOne(kernel, 'Write', { file_path: 'x\0y', content: '' });
    expect(write.metadata?.code).toBe('ASSISTANT_TOOL_PATH_INVALID');
    expect(readdirSync(root).some((n) => n.startsWith('x'))).toBe(false);
  });

  it('resolves symlinks to the real file', async () => {
    const result = await read({ file_path: 'link.txt' });
    expect(result.metadata?.file).toBe(join(root, 'notes.txt'));
  });
});

describe('Write', () => {
  it('creates files and missing folders', async () => {
    const result = await runOne(kernel, 'Write', { file_path: 'new/deep/file.txt', content: 'one\ntwo\n' });
    expect(text(result)).toBe('Created new/deep/file.txt (2 lines, 8 bytes).');
    expect(readFileSync(join(root, 'new/deep/file.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('refuses to overwrite a file the model has not read, then overwrites it atomically keeping its mode', async () => {
    writeFileSync(join(root, 'tool.sh'), '#!/bin/sh\necho old\n');
    chmodSync(join(root, 'tool.sh'), 0o751);
    const refused = await runOne(kernel, 'Write', { file_path: 'tool.sh', content: 'x' });
    expect(text(refused)).toContain('has not been read in this session');
    expect(readFileSync(join(root, 'tool.sh'), 'utf8')).toBe('#!/bin/sh\necho old\n');
    await read({ file_path: 'tool.sh' });
    const written = await runOne(kernel, 'Write', { file_path: 'tool.sh', content: '#!/bin/sh\necho new\n' });
    expect(text(written)).toContain('Overwrote tool.sh');
    expect(readFileSync(join(root, 'tool.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(join(root, 'tool.sh')).mode & 0o777).toBe(0o751);
    expect(readdirSync(root).filter((n) => n.includes('.assistant-'))).toEqual([]);
  });

  it('refuses to overwrite a file changed since it was read, in another session too', async () => {
    writeFileSync(join(root, 'shared.txt'), 'v1');
    await read({ file_path: 'shared.txt' });
    writeFileSync(join(root, 'shared.txt'), 'v2 from the editor');
    const refused = await runOne(kernel, 'Write', { file_path: 'shared.txt', content: 'mine' });
    expect(text(refused)).toContain('has changed since you last read it');
    expect(readFileSync(join(root, 'shared.txt'), 'utf8')).toBe('v2 from the editor');
    const otherSession = await runOne(kernel, 'Write', { file_path: 'shared.txt', content: 'mine' }, { sessionId: 'other' });
    expect(text(otherSession)).toContain('has not been read in this session');
  });
});

describe('Edit and MultiEdit', () => {
  it('replaces a unique string and returns a diff snippet', async () => {
    await read({ file_path: 'src/app.ts' });
    const result = await runOne(kernel, 'Edit', { file_path: 'src/app.ts', old_string: 'return a + b;', new_string: 'return a + b + 0;' });
    expect(text(result)).toBe('Edited src/app.ts (1 replacement):\n1   export function add(a: number, b: number) {\n2 -   return a + b;\n2 +   return a + b + 0;\n3   }');
    expect(result.metadata).toMatchObject({ replacements: 1, added: 1, removed: 1 });
    expect(readFileSync(join(root, 'src/app.ts'), 'utf8')).toContain('return a + b + 0;');
    // The model saw its own edit: a second edit needs no new Read.
    const again = await runOne(kernel, 'Edit', { file_path: 'src/app.ts', old_string: ' + 0;', new_string: ';' });
    expect(again.isError).toBeUndefined();
  });

  it('says "not found" with a hint, and "appears N times" for ambiguous strings', async () => {
    writeFileSync(join(root, 'dup.py'), 'def f():\n    x = 1\n    x = 1\n    return x\n');
    await read({ file_path: 'dup.py' });
    const indent = await runOne(kernel, 'Edit', { file_path: 'dup.py', old_string: 'def f():\n  return x', new_string: 'y' });
    expect(text(indent)).toContain('old_string was not found');
    const missing = await runOne(kernel, 'Edit', { file_path: 'dup.py', old_string: '    retrun x', new_string: 'y' });
    expect(text(missing)).toContain('The closest line is 4: "    return x"');
    const twice = await runOne(kernel, 'Edit', { file_path: 'dup.py', old_string: 'x = 1', new_string: 'x = 2' });
    expect(text(twice)).toContain('appears 2 times');
    const all = await runOne(kernel, 'Edit', { file_path: 'dup.py', old_string: 'x = 1', new_string: 'x = 2', replace_all: true });
    expect(text(all)).toContain('(2 replacements)');
    expect(readFileSync(join(root, 'dup.py'), 'utf8')).toBe('def f():\n    x = 2\n    x = 2\n    return x\n');
  });

  it('points at the same lines with other indentation', async () => {
    writeFileSync(join(root, 'ws.js'), 'if (a) {\n\tgo();\n}\n');
    await read({ file_path: 'ws.js' });
    const result = await runOne(kernel, 'Edit', { file_path: 'ws.js', old_string: 'if (a) {\n    go();', new_string: 'x' });
    expect(text(result)).toContain('different indentation or whitespace are at line 1');
  });

  it('refuses an edit after an external change, and one to an unread file', async () => {
    writeFileSync(join(root, 'race.txt'), 'original\n');
    await read({ file_path: 'race.txt' });
    writeFileSync(join(root, 'race.txt'), 'changed by the user\n');
    const stale = await runOne(kernel, 'Edit', { file_path: 'race.txt', old_string: 'original', new_string: 'mine' });
    expect(text(stale)).toContain('has changed since you last read it');
    expect(stale.metadata?.conflict).toBe(true);
    expect(readFileSync(join(root, 'race.txt'), 'utf8')).toBe('changed by the user\n');
    writeFileSync(join(root, 'unread.txt'), 'x');
    expect(text(await runOne(kernel, 'Edit', { file_path: 'unread.txt', old_string: 'x', new_string: 'y' }))).toContain('has not been read');
  });

  it('keeps CRLF line endings and creates a file from an empty old_string', async () => {
    writeFileSync(join(root, 'win.txt'), 'one\r\ntwo\r\nthree\r\n');
    await read({ file_path: 'win.txt' });
    const result = await runOne(kernel, 'Edit', { file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    expect(result.isError).toBeUndefined();
    expect(readFileSync(join(root, 'win.txt'), 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
    await runOne(kernel, 'Edit', { file_path: 'made.txt', old_string: '', new_string: 'fresh' });
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('fresh');
  });

  it('applies MultiEdit all or nothing', async () => {
    writeFileSync(join(root, 'multi.txt'), 'a b c\n');
    await read({ file_path: 'multi.txt' });
    const failed = await runOne(kernel, 'MultiEdit', { file_path: 'multi.txt', edits: [{ old_string: 'a', new_string: 'A' }, { old_string: 'zzz', new_string: 'Z' }] });
    expect(text(failed)).toContain('Edit 2 of 2: old_string was not found');
    expect(readFileSync(join(root, 'multi.txt'), 'utf8')).toBe('a b c\n');
    const done = await runOne(kernel, 'MultiEdit', { file_path: 'multi.txt', edits: [{ old_string: 'a', new_string: 'A' }, { old_string: 'A b', new_string: 'A B' }] });
    expect(text(done)).toContain('(2 replacements)');
    expect(readFileSync(join(root, 'multi.txt'), 'utf8')).toBe('A B c\n');
  });
});

describe('Glob and LS', () => {
  it('matches patterns newest first, honouring .gitignore and skipping node_modules', async () => {
    mkdirSync(join(root, 'g'), { recursive: true });
    for (const [name, age] of [['old.ts', 3000], ['mid.ts', 2000], ['new.ts', 1000]] as const) {
      writeFileSync(join(root, 'g', name), name);
      const t = new Date(Date.now() - age * 1000);
      utimesSync(join(root, 'g', name), t, t);
    }
    const result = await runOne(kernel, 'Glob', { pattern: 'g/**/*.ts' });
    expect(text(result)).toBe('Found 3 files (newest first):\ng/new.ts\ng/mid.ts\ng/old.ts');
    expect(result.metadata?.files).toBe(3);
    const js = await runOne(kernel, 'Glob', { pattern: '**/*.js' });
    expect(text(js)).not.toContain('dist/bundle.js');
    expect(text(js)).not.toContain('node_modules');
    const deps = await runOne(kernel, 'Glob', { pattern: 'node_modules/**/*.js' });
    expect(text(deps)).toContain('node_modules/dep/index.js');
    expect(text(await runOne(kernel, 'Glob', { pattern: '*.nothing' }))).toContain('No files found');
    const notDir = await runOne(kernel, 'Glob', { pattern: '*', path: 'notes.txt' });
    expect(text(notDir)).toBe('notes.txt is not a directory. Give a folder as path.');
    const noPath = await runOne(kernel, 'Grep', { pattern: 'x', path: 'missing-folder' });
    expect(text(noPath)).toBe('Grep: path does not exist: missing-folder.');
  });

  it('caps Glob at 100 results', async () => {
    for (let i = 0; i < 120; i++) writeFileSync(join(root, 'g', `many-${i}.txt`), '');
    const result = await runOne(kernel, 'Glob', { pattern: 'g/many-*.txt' });
    expect(text(result)).toContain('Found 120 files');
    expect(text(result)).toContain('(20 more not shown');
  });

  it('lists a tree with ignore rules', async () => {
    const result = await runOne(kernel, 'LS', { path: 'src' });
    expect(text(result)).toBe('src/\n  - app.ts');
    const top = text(await runOne(kernel, 'LS', { ignore: ['g', '*.txt'] }));
    expect(top).toContain('  - src/\n    - app.ts');
    expect(top).not.toContain('dist');
    expect(top).not.toContain('debug.log');
    expect(top).not.toContain('notes.txt');
    expect(top).not.toContain('many-');
    expect(text(await runOne(kernel, 'LS', { path: 'notes.txt' }))).toContain('is a file');
  });
});
