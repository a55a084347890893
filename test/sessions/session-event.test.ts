// Persistence has one way in: the store `persistence.store` selects is `kernel.store()`, the open
// session appends to it, and `sessionEvent` observers see each event only once the store has it.
import { describe, expect, it } from 'vitest';
import { createTestKernel } from '@assistant-cli/assistant/testing';
import { definePlugin, type SessionEvent } from '@assistant-cli/assistant';
import { tempDir } from '../support/project.js';

/** An observer that, for each event, reads the session back from the store and notes whether the event is in it. */
function storedBeforeObserved(seen: Array<{ type: string; stored: boolean }>) {
  return definePlugin({
    name: 'sink',
    apply(kernel) {
      kernel.hooks.sessionEvent.tapPromise('sink', async (event, info) => {
        if (event.type !== 'message') return void seen.push({ type: event.type, stored: true });
        const snapshot = await kernel.store().load({ kind: 'id', id: info.id, projectRoot: kernel.projectRoot });
        const text = (m: unknown) => JSON.stringify(m);
        seen.push({ type: event.type, stored: Boolean(snapshot?.messages.some((m) => text(m) === text(event.message))) });
      });
    },
  });
}

describe('sessionEvent', () => {
  it('tells observers of each event after the selected store has appended it', async () => {
    const seen: Array<{ type: string; stored: boolean }> = [];
    const dir = tempDir('assistant-session-event-');
    const kit = await createTestKernel({ builtins: ['store-jsonl'], plugins: [storedBeforeObserved(seen)], config: { persistence: { store: 'jsonl', jsonl: { dir } } } });
    try {
      const session = await kit.session();
      await session.record({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'first prompt' }], meta: { time: 1, origin: 'user' } } });
      await session.record({ type: 'checkpoint', reason: 'turn_end' });
      expect(seen.map((s) => s.type)).toEqual(['session_start', 'message', 'title', 'checkpoint']);
      expect(seen.filter((s) => !s.stored)).toEqual([]);
    } finally {
      await kit.close();
    }
  });

  it('fires for an in-memory session too (persistence.store: none), where there is no store to read', async () => {
    const events: SessionEvent[] = [];
    const sink = definePlugin({ name: 'sink', apply: (kernel) => kernel.hooks.sessionEvent.tapPromise('sink', async (event) => void events.push(event)) });
    const kit = await createTestKernel({ builtins: false, plugins: [sink], config: { persistence: { store: 'none' } } });
    try {
      const session = await kit.session();
      await session.record({ type: 'checkpoint', reason: 'turn_end' });
      expect(events.map((e) => e.type)).toEqual(['session_start', 'checkpoint']);
      expect(() => kit.kernel.store()).toThrow(expect.objectContaining({ code: 'ASSISTANT_STORE_UNKNOWN' }));
    } finally {
      await kit.close();
    }
  });

  it('replaces persist and loadSession, which a plugin built without kernelApi is told are gone, with the closest hooks', async () => {
    for (const removed of ['persist', 'loadSession']) {
      const old = definePlugin({ name: 'old-sink', apply: (kernel) => (kernel.hooks as unknown as Record<string, { tapPromise(name: string, fn: () => Promise<void>): void }>)[removed]!.tapPromise('old-sink', async () => undefined) });
      await expect(createTestKernel({ builtins: false, plugins: [old] })).rejects.toMatchObject({
        code: 'ASSISTANT_HOOK_UNKNOWN',
        message: expect.stringContaining(`there is no hook "${removed}"`),
      });
    }
  });
});
