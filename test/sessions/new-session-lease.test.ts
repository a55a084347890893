import { describe, expect, it } from 'vitest';
import { createTestKernel } from '@assistant-cli/assistant/testing';
import { definePlugin, type SessionStore } from '@assistant-cli/assistant';
import { createJsonlStore } from '../../dist/plugins/store-jsonl/store.js';
import { tempDir } from '../support/project.js';
import { silentLogger } from './silent-logger.js';

/** A store that records the calls it receives and holds nothing: what the kernel asks, in order. */
function recordingStorePlugin(calls: string[]) {
  const store: SessionStore = {
    name: 'recording',
    append: async (event, info) => void calls.push(`append ${event.type} ${info.id}`),
    load: async () => undefined,
    resolve: async () => [],
    list: async () => [],
    delete: async () => false,
    prune: async () => [],
    acquire: async (sessionId) => {
      calls.push(`acquire ${sessionId}`);
      return { sessionId, owner: { surface: 'test', pid: process.pid, host: 'h', since: 0 }, release: async () => undefined };
    },
    appendRecords: async () => undefined,
    readRecords: async () => [],
    close: async () => void calls.push('close'),
  };
  return definePlugin({ name: 'store-recording', apply: (kernel) => void kernel.hooks.sessionStore.for('recording').tap('store-recording', () => store) });
}

describe('the lease of a new session', () => {
  it('is claimed by the kernel before the session_start is appended', async () => {
    const calls: string[] = [];
    const kit = await createTestKernel({ builtins: false, plugins: [recordingStorePlugin(calls)], config: { persistence: { store: 'recording' } } });
    try {
      const session = await kit.session();
      expect(calls.slice(0, 2)).toEqual([`acquire ${session.info.id}`, `append session_start ${session.info.id}`]);
      await session.record({ type: 'checkpoint', reason: 'turn_end' });
      // Once: later events do not claim again.
      expect(calls.filter((c) => c.startsWith('acquire'))).toHaveLength(1);
    } finally {
      await kit.close();
    }
    expect(calls.at(-1)).toBe('close');
  });

  it('protects a test kit session persisted to the JSONL store from a second process until the kit closes', async () => {
    const dir = tempDir('assistant-kit-data-');
    const kit = await createTestKernel({ config: { persistence: { store: 'jsonl', jsonl: { dir } } } });
    const other = createJsonlStore(dir, silentLogger, { surface: 'other@host:/dev/pts/9', pid: process.pid, host: 'elsewhere', since: 0 });
    try {
      const session = await kit.session();
      const [row] = await other.list({ projectRoot: kit.projectRoot });
      expect(row).toMatchObject({ id: session.info.id, inUseBy: expect.any(String) });
      await expect(other.acquire(session.info.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
      await kit.close();
      await expect(other.acquire(session.info.id)).resolves.toMatchObject({ sessionId: session.info.id });
    } finally {
      await other.close();
    }
  });

  it('is not needed by a test kit session kept in memory (no store is selected)', async () => {
    const kit = await createTestKernel();
    try {
      await kit.session();
      expect(() => kit.kernel.store()).toThrow(expect.objectContaining({ code: 'ASSISTANT_STORE_UNKNOWN' }));
    } finally {
      await kit.close();
    }
  });
});
