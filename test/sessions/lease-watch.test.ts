// watchLease's look on demand (`check()`), which the web server and the ACP agent call before each
// prompt: a take-over that came and went between two polls is caught, even when the store has
// handed the released lease back to its old holder (Redis renews a released lease that way). Real
// parts: a test kernel on the JSONL store, and a second store instance in the role of the other surface.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createTestKernel } from '@assistant-cli/assistant/testing';
import type { SessionOwner } from '../../dist/core/index.js';
import { watchLease, type LeaseLoss } from '../../dist/core/kits/agent/index.js';
import { createJsonlStore } from '../../dist/plugins/store-jsonl/store.js';
import { tempDir } from '../support/project.js';
import { silentLogger } from './silent-logger.js';

const elsewhere: SessionOwner = { surface: 'ci@build-7 (pid 4242)', pid: 4242, host: 'build-7', since: Date.now(), kind: 'headless' };

/** A session this kernel holds and wrote to, the store it lives in, and a watch that never polls on its own. */
async function heldSession() {
  const dir = tempDir('assistant-lease-watch-');
  const kit = await createTestKernel({ config: { persistence: { store: 'jsonl', jsonl: { dir } } }, model: { turns: [{ when: { userText: 'hello' }, reply: { text: 'hi' } }] } });
  await kit.prompt('hello');
  const session = await kit.session();
  const losses: LeaseLoss[] = [];
  const watch = watchLease(kit.kernel, (loss) => losses.push(loss), { intervalMs: 600_000 });
  return { dir, kit, session, losses, watch };
}

/** Another surface takes the session over, writes a turn, and lets it go. */
async function takeOverAndLeave(dir: string, session: Awaited<ReturnType<typeof heldSession>>['session']) {
  const other = createJsonlStore(dir, silentLogger, elsewhere);
  const lease = await other.acquire(session.info.id, { takeOver: true });
  await other.append({ type: 'resume', projectRoot: session.info.projectRoot, projectHash: session.info.projectHash, surface: elsewhere.surface, owner: elsewhere }, session.info);
  await other.append({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'written elsewhere' }] } }, session.info);
  await lease.release();
  await other.close();
}

describe('watchLease check()', () => {
  it('is quiet while the session is ours', async () => {
    const { kit, losses, watch } = await heldSession();
    try {
      expect(await watch.check()).toBeUndefined();
      expect(losses).toEqual([]);
    } finally {
      watch.stop();
      await kit.close();
    }
  });

  it('catches a take-over that came and went before the next poll, naming the surface from its resume record', async () => {
    const { dir, kit, session, losses, watch } = await heldSession();
    try {
      expect(await watch.check()).toBeUndefined();
      await takeOverAndLeave(dir, session);
      const loss = await watch.check();
      expect(loss).toMatchObject({ sessionId: session.info.id, where: 'headless on host build-7 (pid 4242)' });
      expect(losses).toEqual([loss]);
      // Said once.
      expect(await watch.check()).toBe(loss);
      expect(losses).toHaveLength(1);
    } finally {
      watch.stop();
      await kit.close();
    }
  });

  it('catches it when the store handed the released lease back to this surface: the stored history is longer than ours', async () => {
    const { dir, kit, session, losses, watch } = await heldSession();
    try {
      expect(await watch.check()).toBeUndefined();
      await takeOverAndLeave(dir, session);
      // As Redis's renewal does after a release: the lease is ours again, the other surface's turn is not in our history.
      await kit.kernel.store().acquire(session.info.id);
      expect(await kit.kernel.store().holder!(session.info.id)).toMatchObject({ mine: true, owner: { host: hostname() } });
      const loss = await watch.check();
      expect(loss).toMatchObject({ sessionId: session.info.id, where: 'headless on host build-7 (pid 4242)' });
      expect(losses).toEqual([loss]);
    } finally {
      watch.stop();
      await kit.close();
    }
  });
});
