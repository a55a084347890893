import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { definePlugin } from '@assistant-cli/assistant';
import { createTestKernel, resultText, type TestKernel } from '@assistant-cli/assistant/testing';
import migrationGuard from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const INIT = 'CREATE TABLE users (id int);\n';
const files = {
  'migrations/001_init.sql': INIT,
  'db/migrations/002_orders.sql': 'CREATE TABLE orders (id int);\n',
  'src/app.ts': 'export const app = 1;\n',
  'docs/migrations.md': '# How we migrate\n',
};

/** acceptEdits: without the guard every edit inside the project would be allowed. */
async function guarded(options: Record<string, unknown> = {}, extra: Parameters<typeof createTestKernel>[0] = {}) {
  t = await createTestKernel({ plugins: [[migrationGuard, options]], files, mode: 'acceptEdits', ...extra });
  return t;
}

/** Sends a user prompt through the userPrompt hook, as the agent loop does. */
async function userSays(text: string, agentId?: string) {
  const session = await t!.session();
  await t!.kernel.hooks.userPrompt.promise({ role: 'user', content: [{ type: 'text', text }] }, { turn: 1, sessionId: session.info.id, agentId, signal: new AbortController().signal });
}

const edit = (file_path: string) => ({ file_path, old_string: 'id int', new_string: 'id bigint' });

describe('migration guard', () => {
  it('denies edits under any migrations/ folder, nested or reached through a symlink, and nothing else', async () => {
    await guarded();
    symlinkSync(join(t!.projectRoot, 'migrations'), join(t!.projectRoot, 'schema'));
    await userSays('fix the typo in the README');
    for (const path of ['migrations/001_init.sql', 'db/migrations/002_orders.sql', 'schema/001_init.sql', 'migrations/003_new.sql'])
      expect(await t!.permission(path.endsWith('new.sql') ? 'Write' : 'Edit', path.endsWith('new.sql') ? { file_path: path, content: 'x' } : edit(path))).toMatchObject({
        behavior: 'deny',
        layer: 'migration-guard',
      });
    expect(await t!.permission('Edit', edit('src/app.ts'))).toMatchObject({ behavior: 'allow', layer: 'mode' });
    expect(await t!.permission('Edit', edit('docs/migrations.md'))).toMatchObject({ behavior: 'allow' });
    expect(await t!.permission('Read', { file_path: 'migrations/001_init.sql' })).toMatchObject({ behavior: 'allow' });
  });

  it('denies shell commands that refer to a migrations folder, even in bypass mode', async () => {
    await guarded({}, { mode: 'bypass' });
    const denial = await t!.permission('Bash', { command: "sed -i 's/int/bigint/' migrations/001_init.sql" });
    expect(denial).toMatchObject({ behavior: 'deny', layer: 'migration-guard' });
    expect(denial.reason).toBe(
      "the command `sed -i 's/int/bigint/' migrations/001_init.sql` refers to migrations/, and migrations are only changed when the user's prompt asks for a migration; leave it as it is, or ask the user to confirm in a new prompt",
    );
    expect(await t!.permission('Bash', { command: 'ls src' })).toMatchObject({ behavior: 'allow', layer: 'mode' });
  });

  it("unlocks for a prompt that mentions a migration, re-arms on the next one, and ignores a sub-agent's prompt", async () => {
    await guarded();
    await userSays('Add an index to the users Migration');
    expect(await t!.permission('Edit', edit('migrations/001_init.sql'))).toMatchObject({ behavior: 'allow', layer: 'mode' });
    await userSays('now fix the README');
    expect(await t!.permission('Edit', edit('migrations/001_init.sql'))).toMatchObject({ behavior: 'deny' });
    await userSays('rewrite the migrations as you see fit', 'explorer');
    expect(await t!.permission('Edit', edit('migrations/001_init.sql'))).toMatchObject({ behavior: 'deny' });
  });

  it('guards the folders and keyword the options name', async () => {
    await guarded({ directories: ['schema-changes'], keyword: 'schema' });
    t!.write({ 'schema-changes/001.sql': INIT });
    await userSays('tidy up the code');
    expect(await t!.permission('Edit', edit('schema-changes/001.sql'))).toMatchObject({ behavior: 'deny' });
    expect(await t!.permission('Edit', edit('migrations/001_init.sql'))).toMatchObject({ behavior: 'allow' });
    await userSays('change the schema');
    expect(await t!.permission('Edit', edit('schema-changes/001.sql'))).toMatchObject({ behavior: 'allow' });
    await expect(createTestKernel({ plugins: [[migrationGuard, { directories: ['db/migrations'] }]] })).rejects.toMatchObject({ code: 'ASSISTANT_PLUGIN_OPTIONS_INVALID' });
  });

  it("guards what any tool's lock set writes, and a tool that may write files it does not name", async () => {
    const never = async () => ({ content: [{ type: 'text' as const, text: 'not run' }] });
    const tools = definePlugin({
      name: 'third-party-writers',
      apply(kernel) {
        // Claims to read, but its lock set writes `out`: judged as `other`, so its paths are writes.
        kernel.tools.register({ name: 'Export', description: 'x', inputSchema: { type: 'object' }, access: (input: { out: string }) => ({ reads: [], writes: [input.out] }), risk: { category: 'read' }, handler: never });
        kernel.tools.register({ name: 'Anything', description: 'x', inputSchema: { type: 'object' }, access: 'write', risk: { category: 'other' }, handler: never });
      },
    });
    await guarded({}, { plugins: [[migrationGuard, {}], tools] });
    await userSays('tidy up the code');
    expect(await t!.permission('Export', { out: 'migrations/004.sql' })).toMatchObject({ behavior: 'deny', layer: 'migration-guard' });
    expect(await t!.permission('Export', { out: 'src/out.ts' })).not.toMatchObject({ layer: 'migration-guard' });
    expect(await t!.permission('Anything', {})).toMatchObject({ behavior: 'deny', layer: 'migration-guard', reason: expect.stringContaining('may write files it does not name') });
  });

  it('stops the model in the agent loop, and lets it through when asked for a migration', async () => {
    const tryEdit = (id: string) => ({ toolCalls: [{ id, name: 'Edit', input: edit('migrations/001_init.sql') }] });
    await guarded({}, {
      model: {
        turns: [
          { when: { userText: 'README' }, reply: tryEdit('edit_1') },
          { when: { toolResultFor: 'edit_1' }, reply: { text: 'I left the migration alone.' } },
          { when: { userText: 'migration' }, reply: { toolCalls: [{ id: 'read_1', name: 'Read', input: { file_path: 'migrations/001_init.sql' } }] } },
          { when: { toolResultFor: 'read_1' }, reply: tryEdit('edit_2') },
          { when: { toolResultFor: 'edit_2' }, reply: { text: 'Widened the id.' } },
        ],
      },
    });
    expect((await t!.prompt('Polish the README')).text).toBe('I left the migration alone.');
    const denied = (await t!.session()).messages.find((m) => m.role === 'tool')!;
    expect(denied.content[0]).toMatchObject({ isError: true });
    expect(resultText(denied.content[0]!)).toContain('migrations/001_init.sql is under migrations/');
    expect(t!.read('migrations/001_init.sql')).toBe(INIT);

    expect((await t!.prompt('Write a migration change: ids become bigint')).text).toBe('Widened the id.');
    expect(t!.read('migrations/001_init.sql')).toBe('CREATE TABLE users (id bigint);\n');
  });
});
