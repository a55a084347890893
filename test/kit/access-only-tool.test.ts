// A third-party tool declares what it touches once, in `access`, and the built-in permission policy
// judges those paths: no `risk.paths`, no second list that could disagree with the lock set.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { definePlugin, type LockSet, type PermissionRequest } from '@assistant-cli/assistant';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';

const never = async () => ({ content: [{ type: 'text' as const, text: 'not run' }] });
const object = { type: 'object' } as const;

/** Tools as a third party writes them: paths only in `access`. */
const thirdParty = definePlugin({
  name: 'third-party-tools',
  apply(kernel) {
    kernel.tools.register({
      name: 'SaveNote',
      description: 'Writes a note to a file.',
      inputSchema: object,
      access: (input: { dest: string }) => ({ reads: [], writes: [input.dest] }),
      risk: { category: 'edit' },
      handler: never,
    });
    // Claims to only read, yet its lock set writes a file.
    kernel.tools.register({
      name: 'Export',
      description: 'Reads a file and exports it.',
      inputSchema: object,
      access: (input: { from: string; to: string }) => ({ reads: [input.from], writes: [input.to] }),
      risk: { category: 'read' },
      handler: never,
    });
    // Names one file, and everything besides.
    kernel.tools.register({
      name: 'Index',
      description: 'Indexes from a file outwards.',
      inputSchema: object,
      access: (input: { file: string }) => ({ reads: [input.file, '*'], writes: [] }),
      risk: { category: 'read' },
      handler: never,
    });
    kernel.tools.register({
      name: 'Scan',
      description: 'Reads whatever it likes.',
      inputSchema: object,
      access: 'read',
      risk: { category: 'read' },
      handler: never,
    });
    kernel.tools.register({
      name: 'Fragile',
      description: 'Cannot say what it touches.',
      inputSchema: object,
      access: (): LockSet => {
        throw new Error('no idea');
      },
      risk: { category: 'read' },
      handler: never,
    });
  },
});

let t: TestKernel;
beforeAll(async () => {
  t = await createTestKernel({ plugins: [thirdParty], files: { 'src/a.txt': 'a\n' } });
}, 60_000);
afterAll(() => t?.close());

const lastRequest = (): PermissionRequest => t.hooks.last('permission')!.args[0];

describe('a third-party tool that declares only access', () => {
  it('has its written paths checked: outside the project is refused, a control file needs a person, the project is fine', async () => {
    expect(await t.permission('SaveNote', { dest: '../outside.txt' })).toMatchObject({ behavior: 'deny', layer: 'paths', reason: expect.stringMatching(/outside the project/) });
    expect(lastRequest().paths).toEqual(['../outside.txt']);
    expect(await t.permission('SaveNote', { dest: '.assistantrc.json' }, { mode: 'acceptEdits' })).toMatchObject({ behavior: 'ask', layer: 'mode', reason: expect.stringMatching(/steers assistant/) });
    expect(await t.permission('SaveNote', { dest: '/etc/cron.d/job' }, { mode: 'bypass' })).toMatchObject({ behavior: 'deny', layer: 'guard' });
    expect(await t.permission('SaveNote', { dest: '.env' })).toMatchObject({ behavior: 'deny', layer: 'guard', reason: expect.stringMatching(/secret/i) });
    expect(await t.permission('SaveNote', { dest: 'src/note.txt' }, { mode: 'acceptEdits' })).toMatchObject({ behavior: 'allow', layer: 'mode' });
  });

  it('cannot pass a path off as a resource with an @ prefix', async () => {
    expect(await t.permission('SaveNote', { dest: '@x/../../escape.txt' })).toMatchObject({ behavior: 'deny', layer: 'paths' });
    expect(lastRequest().paths).toEqual(['@x/../../escape.txt']);
  });

  it('is judged as a writer when it claims to read but declares a write', async () => {
    expect(await t.permission('Export', { from: 'src/a.txt', to: 'src/b.txt' }, { mode: 'plan' })).toMatchObject({ behavior: 'deny', layer: 'mode' });
    expect(lastRequest()).toMatchObject({ category: 'other', paths: ['src/a.txt', 'src/b.txt'] });
    expect(await t.permission('Export', { from: 'src/a.txt', to: '../out.txt' })).toMatchObject({ behavior: 'deny', layer: 'paths' });
  });

  it('is never judged by the paths it names alone when it also locks everything', async () => {
    // A read of a project file would be allowed on its own; "and everything else" needs a person.
    expect(await t.permission('Index', { file: 'src/a.txt' })).toMatchObject({ behavior: 'ask' });
    expect(lastRequest()).toMatchObject({ paths: ['src/a.txt'], unbounded: 'read' });
    expect(await t.permission('Scan', {})).toMatchObject({ behavior: 'ask' });
    expect(lastRequest()).toMatchObject({ paths: [], unbounded: 'read' });
  });

  it('fails closed when its declaration throws: an unbounded write', async () => {
    expect(await t.permission('Fragile', {}, { mode: 'plan' })).toMatchObject({ behavior: 'deny', layer: 'mode' });
    expect(lastRequest()).toMatchObject({ category: 'other', paths: [], unbounded: 'write' });
    expect(await t.permission('Fragile', {})).toMatchObject({ behavior: 'ask' });
  });

  it('is refused at registration when it still gives risk.paths', async () => {
    const old = definePlugin({
      name: 'old-style',
      apply(kernel) {
        kernel.tools.register({
          name: 'OldRead',
          description: 'x',
          inputSchema: object,
          access: 'read',
          // @ts-expect-error risk.paths is gone: the lock set is the one declaration
          risk: { category: 'read', paths: (input: { file: string }) => [input.file] },
          handler: never,
        });
      },
    });
    await expect(createTestKernel({ plugins: [old], builtins: false })).rejects.toThrow(/risk\.paths.*declare the paths in access/);
  });

  it('types access and risk.command with the input', () => {
    definePlugin({
      name: 'typed',
      apply(kernel) {
        kernel.tools.register({
          name: 'Run',
          description: 'x',
          inputSchema: object,
          access: (input: { script: string }) => ({ reads: [input.script], writes: [] }),
          risk: {
            category: 'execute',
            command: (input) => {
              expectTypeOf(input).toEqualTypeOf<{ script: string }>();
              return `sh ${input.script}`;
            },
          },
          handler: never,
        });
      },
    });
  });
});
