// Checkpoints live in the session's side channels, so they work with the Redis store too: a rewind
// from another kernel (another machine sharing the store) restores the files and the conversation,
// and deleting the session removes every checkpoint key.
import { describe, expect, it } from 'vitest';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';
import { tempDir } from '../support/project.js';
import { redisServerBinary, useRedis } from '../sessions/redis-server.js';
import { rewind } from '../../dist/plugins/checkpoints/rewind.js';
import { readTimeline } from '../../dist/plugins/checkpoints/records.js';

const binary = redisServerBinary();

describe.skipIf(!binary)('checkpoints with the Redis store (real redis-server on 127.0.0.1)', () => {
  const redis = useRedis(binary);

  it('saves before each prompt, rewinds from a second kernel, and is deleted with the session', async () => {
    const persistence = { store: 'redis', redis: { url: redis.server.url, keyPrefix: 'cp:', spoolDir: tempDir('assistant-spool-'), leaseSeconds: 5 } };
    const kernels: TestKernel[] = [];
    try {
      const first = await createTestKernel({ config: { persistence }, files: { 'app.txt': 'version 1\n' }, mode: 'acceptEdits', keepProject: true });
      kernels.push(first);
      const session = await first.session();
      const prompt = (text: string) => session.record({ type: 'message', message: { role: 'user', content: [{ type: 'text', text }], meta: { time: Date.now(), origin: 'user' } } });
      await prompt('first');
      await first.callTools([{ name: 'Read', input: { file_path: 'app.txt' } }]);
      await first.callTools([{ name: 'Edit', input: { file_path: 'app.txt', old_string: 'version 1', new_string: 'version 2' } }]);
      await session.record({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'did first' }] } });
      await prompt('second');
      await first.callTools([{ name: 'Write', input: { file_path: 'created.txt', content: 'new\n' } }]);
      await first.callTools([{ name: 'Edit', input: { file_path: 'app.txt', old_string: 'version 2', new_string: 'version 3' } }]);
      await session.record({ type: 'checkpoint', reason: 'turn_end' });
      expect(first.read('app.txt')).toBe('version 3\n');
      const id = session.info.id;
      const keys = await redis.admin.keys(`cp:s:{${id}}:ch:*`);
      expect(keys).toEqual(expect.arrayContaining([`cp:s:{${id}}:ch:checkpoint-blobs`, `cp:s:{${id}}:ch:checkpoints`]));
      const projectRoot = first.projectRoot;
      await first.close(); // releases the session, as a surface exiting would

      // Another kernel on the same project and store rewinds it.
      const second = await createTestKernel({ config: { persistence }, mode: 'acceptEdits' });
      kernels.push(second);
      const store = second.kernel.store();
      const lease = await store.acquire(id);
      const loaded = (await second.kernel.store().load({ kind: 'id', id, projectRoot }))!;
      const info = { ...loaded.info };
      const outcome = await rewind({ store, sessionId: id, projectRoot, record: (event) => store.append(event, info) }, { prompt: 2, code: true, conversation: true, force: false });
      expect(outcome).toMatchObject({ restored: ['app.txt'], deleted: ['created.txt'], conversation: true });
      await lease.release();
      const { readFileSync, existsSync } = await import('node:fs');
      expect(readFileSync(`${projectRoot}/app.txt`, 'utf8')).toBe('version 2\n');
      expect(existsSync(`${projectRoot}/created.txt`)).toBe(false);
      const reloaded = (await second.kernel.store().load({ kind: 'id', id, projectRoot }))!;
      expect(reloaded.messages.map((m) => (m.content[0] as { text?: string }).text)).toEqual(['first', 'did first']);
      expect((await readTimeline(store, id)).prompts.filter((p) => p.live).map((p) => p.text)).toEqual(['first']);

      expect(await store.delete(id)).toBe(true);
      expect(await redis.admin.keys(`cp:s:{${id}}:*`)).toEqual([]);
    } finally {
      for (const k of kernels) await k.close();
    }
  }, 120_000);
});
