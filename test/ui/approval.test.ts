import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalPreview, plannedChange, resolveReal } from '../../dist/plugins/ui-terminal/approval/preview.js';
import { ApprovalPrompt, INTERRUPT_MESSAGE } from '../../dist/plugins/ui-terminal/approval/prompt.js';
import { createStyle } from '../../dist/plugins/ui-terminal/terminal/style.js';
import { stripAnsi, visibleWidth } from '../../dist/plugins/ui-terminal/terminal/width.js';
import type { ApprovalRequest, PermissionRequest } from '../../dist/core/index.js';
import { makeProject, tempDir } from '../support/project.js';

const color = createStyle(true);
const plain = createStyle(false);

function approval(project: string, request: Partial<PermissionRequest>, reason = 'needs approval', suggestedRule?: string): ApprovalRequest {
  return {
    request: { tool: 'Edit', input: {}, category: 'edit', paths: [], projectRoot: project, cwd: project, mode: 'default', headless: false, ...request },
    decision: { behavior: 'ask', reason, layer: 'test-policy', ...(suggestedRule ? { suggestedRule } : {}) },
  };
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const key = (name: string) => ({ type: 'key' as const, name }) as Parameters<ApprovalPrompt['handle']>[0];

describe('what an edit will do', () => {
  it('applies Edit, replace_all and MultiEdit to the file on disk', async () => {
    const dir = makeProject({ 'a.ts': 'let a = 1;\nlet b = 1;\n' });
    expect(await plannedChange({ file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' }, dir)).toMatchObject({ after: 'let a = 2;\nlet b = 1;\n', created: false });
    expect((await plannedChange({ file_path: 'a.ts', old_string: '1', new_string: '3', replace_all: true }, dir))!.after).toBe('let a = 3;\nlet b = 3;\n');
    const multi = await plannedChange({ file_path: join(dir, 'a.ts'), edits: [{ old_string: 'let a', new_string: 'const a' }, { old_string: 'let b', new_string: 'const b' }] }, '/');
    expect(multi!.after).toBe('const a = 1;\nconst b = 1;\n');
  });

  it('says when the edit will fail: old_string missing or not unique', async () => {
    const dir = makeProject({ 'a.ts': 'x x\n' });
    expect((await plannedChange({ file_path: 'a.ts', old_string: 'y', new_string: 'z' }, dir))!.note).toMatch(/not in the file/);
    expect((await plannedChange({ file_path: 'a.ts', old_string: 'x', new_string: 'z' }, dir))!.note).toMatch(/more than once/);
  });

  it('treats Write as replacing the content, and a missing file as created', async () => {
    const dir = makeProject({ 'old.txt': 'before\n' });
    expect(await plannedChange({ file_path: 'old.txt', content: 'after\n' }, dir)).toMatchObject({ before: 'before\n', after: 'after\n', created: false });
    expect(await plannedChange({ file_path: 'new.txt', content: 'hi\n' }, dir)).toMatchObject({ before: '', after: 'hi\n', created: true });
  });

  it('resolves paths through symlinks, including files that do not exist yet', async () => {
    const outside = tempDir();
    const dir = makeProject();
    symlinkSync(outside, join(dir, 'link'));
    expect(await resolveReal('link/new/file.txt', dir)).toBe(join(outside, 'new', 'file.txt'));
    expect(await resolveReal('plain.txt', dir)).toBe(join(dir, 'plain.txt'));
  });
});

describe('approval preview', () => {
  it('shows a coloured unified diff with line numbers, computed from the file on disk', async () => {
    const dir = makeProject({ 'src/a.ts': Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n') + '\n' });
    const item = approval(dir, { input: { file_path: 'src/a.ts', old_string: 'line 6', new_string: 'line six' }, paths: ['src/a.ts'] }, 'file edits need approval');
    const lines = await approvalPreview(item, 0, 1, color, 79);
    const shown = lines.map(stripAnsi);
    expect(shown[0]).toBe('◆ Edit src/a.ts  +1 −1');
    expect(shown).toContain('   6 - line 6');
    expect(shown).toContain('   6 + line six');
    expect(shown).toContain('   3   line 3'); // three lines of context
    expect(shown.some((l) => l.includes('line 2'))).toBe(false);
    expect(lines.find((l) => stripAnsi(l).includes('+ line six'))).toContain('\x1b[32m');
    expect(lines.find((l) => stripAnsi(l).includes('- line 6'))).toContain('\x1b[31m');
    expect(shown[shown.length - 1]).toBe('  why: file edits need approval [test-policy]');
  });

  it('shows a Bash command and the reason it needs approval', async () => {
    const dir = makeProject();
    const item = approval(dir, { tool: 'Bash', category: 'execute', command: 'npm publish --tag next', input: { command: 'npm publish --tag next' } }, 'npm publish reaches the network');
    const shown = (await approvalPreview(item, 1, 3, plain, 79)).map(stripAnsi);
    expect(shown).toEqual(['◆ Bash (2 of 3)', '  $ npm publish --tag next', '  why: npm publish reaches the network [test-policy]']);
    const fromSubAgent = { ...item, request: { ...item.request, agentId: 'reviewer-2' } };
    expect((await approvalPreview(fromSubAgent, 0, 1, plain, 79)).map(stripAnsi)[0]).toBe('◆ Bash · sub-agent reviewer-2');
  });

  it('names the resolved path when a call reaches outside the project, through a symlink too', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.txt'), 'x');
    const dir = makeProject();
    symlinkSync(outside, join(dir, 'shared'));
    const item = approval(dir, { tool: 'Read', category: 'read', input: { file_path: 'shared/secret.txt' }, paths: ['shared/secret.txt'] });
    const shown = (await approvalPreview(item, 0, 1, plain, 200)).map(stripAnsi).join('\n');
    expect(shown).toContain(`⚠ outside the project: ${join(outside, 'secret.txt')} (shared/secret.txt resolves there)`);
  });

  it('fits an 80-column terminal, long lines included', async () => {
    const dir = makeProject({ 'a.txt': 'short\n' });
    const item = approval(dir, { tool: 'Write', input: { file_path: 'a.txt', content: 'x'.repeat(300) + '\n' }, paths: ['a.txt'] }, 'y'.repeat(200));
    for (const line of await approvalPreview(item, 0, 1, color, 79)) expect(visibleWidth(line)).toBeLessThanOrEqual(79);
  });
});

describe('approval prompt', () => {
  const dir = '/project';
  const batch = () => [
    approval(dir, { input: { file_path: 'a.ts' } }, 'edit', 'Edit(src/**)'),
    approval(dir, { tool: 'Bash', category: 'execute', command: 'make', input: { command: 'make' } }, 'make runs code', 'Bash(make:*)'),
    approval(dir, { input: { file_path: 'b.ts' } }, 'needs approval', 'Edit(src/**)'),
  ];

  it('offers only a one-time answer when there is no rule to record (a private address for WebFetch)', () => {
    const prompt = new ApprovalPrompt([approval(dir, { tool: 'WebFetch', category: 'network', input: { url: 'http://127.0.0.1:8080/' } }, '127.0.0.1 is a loopback address')]);
    expect(prompt.options().map((o) => o.label)).toEqual(['Yes', 'No, and tell the model what to do instead']);
    expect(prompt.handle(text('1'))).toBe('done');
    expect(prompt.answers).toEqual([{ behavior: 'allow', scope: 'once' }]);
  });

  it('answers each pending call in turn: once, this session, always for the project', () => {
    const seen: string[] = [];
    const prompt = new ApprovalPrompt(batch(), (item, answer) => seen.push(`${item.request.tool}:${answer.scope}`));
    expect(prompt.options().map((o) => o.label)).toEqual([
      'Yes',
      "Yes, and don't ask again this session (Edit(src/**))",
      'Yes, always in this project (Edit(src/**))',
      'No, and tell the model what to do instead',
      'Yes to all 3 pending calls',
      'No to all 3 pending calls',
    ]);
    expect(prompt.handle(text('1'))).toBe('pending');
    expect(prompt.handle(key('down'))).toBe('pending');
    expect(prompt.handle(key('enter'))).toBe('pending'); // option 2 on the second call
    expect(prompt.handle(text('3'))).toBe('done');
    expect(prompt.answers).toEqual([
      { behavior: 'allow', scope: 'once' },
      { behavior: 'allow', scope: 'session' },
      { behavior: 'allow', scope: 'project' },
    ]);
    expect(seen).toEqual(['Edit:once', 'Bash:session', 'Edit:project']);
  });

  it('denies with a message for the model, or none', () => {
    const prompt = new ApprovalPrompt(batch().slice(0, 2));
    prompt.handle(text('n'));
    expect(prompt.view(plain, 79).lines.join('\n')).toContain('Tell the model what to do instead');
    prompt.handle({ type: 'text', text: 'use the Makefile target instead' });
    expect(prompt.handle(key('enter'))).toBe('pending');
    prompt.handle(text('4'));
    expect(prompt.handle(key('enter'))).toBe('done');
    expect(prompt.answers).toEqual([
      { behavior: 'deny', scope: 'once', message: 'use the Makefile target instead' },
      { behavior: 'deny', scope: 'once' },
    ]);
  });

  it('denies the rest of the batch at once with one message for the model, and the turn goes on', () => {
    const seen: string[] = [];
    const prompt = new ApprovalPrompt(batch(), (item, answer) => seen.push(`${item.request.tool}:${answer.behavior}`));
    prompt.handle(text('1'));
    expect(prompt.handle(text('6'))).toBe('pending'); // "No to all 2 pending calls"
    expect(prompt.view(plain, 79).lines.join('\n')).toContain('Tell the model what to do instead (denies all 2 remaining calls)');
    prompt.handle({ type: 'text', text: 'leave the build alone' });
    expect(prompt.handle(key('enter'))).toBe('done');
    expect(prompt.answers).toEqual([
      { behavior: 'allow', scope: 'once' },
      { behavior: 'deny', scope: 'once', message: 'leave the build alone' },
      { behavior: 'deny', scope: 'once', message: 'leave the build alone' },
    ]);
    expect(seen).toEqual(['Edit:allow', 'Bash:deny', 'Edit:deny']);
    // Esc in the message goes back to the menu, and a single "No" then answers only its own call.
    const back = new ApprovalPrompt(batch());
    back.handle(text('6'));
    back.handle(key('escape'));
    back.handle(text('4'));
    expect(back.handle(key('enter'))).toBe('pending');
    expect(back.answers).toEqual([{ behavior: 'deny', scope: 'once' }]);
  });

  it('allows the whole batch at once, and Esc denies everything left and interrupts', () => {
    const all = new ApprovalPrompt(batch());
    all.handle(text('1'));
    expect(all.handle(text('a'))).toBe('done');
    expect(all.answers.map((a) => a.behavior)).toEqual(['allow', 'allow', 'allow']);

    const stopped = new ApprovalPrompt(batch());
    stopped.handle(text('y'));
    expect(stopped.handle(key('escape'))).toBe('interrupted');
    expect(stopped.answers.slice(1)).toEqual([
      { behavior: 'deny', scope: 'once', message: INTERRUPT_MESSAGE },
      { behavior: 'deny', scope: 'once', message: INTERRUPT_MESSAGE },
    ]);
  });

  it('draws a menu that fits the width, with the selected option marked', () => {
    const prompt = new ApprovalPrompt(batch());
    const view = prompt.view(plain, 40);
    expect(view.lines[1]).toBe('Allow Edit a.ts? (1 of 3)');
    expect(view.lines[2]).toBe('❯ 1. Yes');
    for (const line of view.lines) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
  });
});
