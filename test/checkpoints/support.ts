// What the in-process checkpoint tests share: messages, and a kernel storing sessions as JSONL
// (closed after each test) with the session and the target `rewind` acts on.
import { afterEach } from 'vitest';
import type { Message } from '@assistant-cli/assistant';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], meta: { time: 1, origin: 'user' } });
export const reply = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

let open: TestKernel | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A kernel (acceptEdits, the JSONL store) over a project of `files`, its session, the store, and the target `rewind` takes. */
export async function storedSession(files: Record<string, string> = {}) {
  const t = (open = await createTestKernel({ config: { persistence: { store: 'jsonl' } }, files, mode: 'acceptEdits' }));
  const session = await t.session();
  const store = t.kernel.store();
  const target = { store, sessionId: session.info.id, projectRoot: t.projectRoot, record: (e: Parameters<typeof session.record>[0]) => session.record(e) };
  return { t, session, store, target };
}
