import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestKernel, describeSessionStore } from '@assistant-cli/assistant/testing';
import { tempDir } from '../support/project.js';
import sqliteStorePlugin, { createSqliteStore } from './fixtures/sqlite-store.js';

// A third-party store written from docs/sessions.md alone, held to the same contract as the
// built-ins. Its appends are transactions, which cannot tear: the crash case is skipped.
const base = tempDir('assistant-conformance-sqlite-');

describeSessionStore('sqlite (written from the docs)', ({ scope, owner }) => createSqliteStore(join(base, `${scope}.db`), owner));

describe('the SQLite store plugin in a kernel', () => {
  it('keeps a run of the kernel: the session is claimed, written, listed, and freed on close', async () => {
    const path = join(base, 'kernel.db');
    const kit = await createTestKernel({ plugins: [[sqliteStorePlugin, { path }]], config: { persistence: { store: 'sqlite' } } });
    const other = createSqliteStore(path, { surface: 'other@conformance:/dev/pts/9', pid: process.pid, host: 'h', since: 0 });
    try {
      const session = await kit.session();
      await session.record({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'hello' }], meta: { origin: 'user' } } });
      await session.record({ type: 'checkpoint', reason: 'turn_end' });
      expect(await other.list({ projectRoot: kit.projectRoot })).toEqual([expect.objectContaining({ id: session.info.id, title: 'hello', messageCount: 1, inUseBy: expect.any(String) })]);
      await expect(other.acquire(session.info.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
      await kit.close();
      await other.acquire(session.info.id);
      expect((await other.load({ kind: 'id', id: session.info.id, projectRoot: kit.projectRoot }))?.messages).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
