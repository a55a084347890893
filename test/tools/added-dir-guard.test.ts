// The file tools' own containment check for --add-dir folders (issue #19): a path named inside an
// added folder is held to that folder, as a path in the project is held to the project, so a
// symlink that leads out of it (swapped in after the policy's check) is refused on what is opened.
// The policy here allows everything: what is refused is refused by the tools themselves.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject, tempDir, writeFiles } from '../support/project.js';
import { allowAll, kernelFor, runOne, text } from './helpers.js';

let kernel: Kernel;
let added: string;
let outside: string;

beforeAll(async () => {
  outside = tempDir('assistant-outside-');
  writeFiles(outside, { 'hosts.txt': 'OUTSIDE_TOKEN\n' });
  added = tempDir('assistant-added-');
  writeFiles(added, { 'docs/guide.md': 'GUIDE_TOKEN\n' });
  symlinkSync(join(outside, 'hosts.txt'), join(added, 'out-link.txt'));
  symlinkSync(join(added, 'docs/guide.md'), join(added, 'in-link.md'));
  const root = makeProject({ 'src/a.ts': 'export {};\n' });
  ({ kernel } = await kernelFor(root, [allowAll], { config: { permissions: { additionalDirectories: [added] } } }));
});
afterAll(() => kernel.shutdown());

describe('the file tools in an added folder', () => {
  it('read and write there, following a symlink that stays inside it', async () => {
    expect(text(await runOne(kernel, 'Read', { file_path: join(added, 'docs/guide.md') }))).toContain('GUIDE_TOKEN');
    expect(text(await runOne(kernel, 'Read', { file_path: join(added, 'in-link.md') }))).toContain('GUIDE_TOKEN');
    const written = await runOne(kernel, 'Write', { file_path: join(added, 'docs/new.md'), content: 'new\n' });
    expect(written.isError, text(written)).toBeFalsy();
  });

  it('refuse what a symlink inside it leads to outside it, and withhold it from searches', async () => {
    const read = await runOne(kernel, 'Read', { file_path: join(added, 'out-link.txt') });
    expect(read.isError).toBe(true);
    expect(read.metadata?.code).toBe('ASSISTANT_TOOL_PATH_REFUSED');
    expect(text(read)).toContain(`resolves to ${join(outside, 'hosts.txt')}, outside the project`);
    expect(text(read)).not.toContain('OUTSIDE_TOKEN');

    const grep = await runOne(kernel, 'Grep', { pattern: 'TOKEN', path: added, output_mode: 'content' });
    expect(text(grep)).toContain('GUIDE_TOKEN');
    expect(text(grep)).not.toContain('OUTSIDE_TOKEN');
  });
});
