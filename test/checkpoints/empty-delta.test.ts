// A prompt with no messages before it (a new session's first prompt, all a one-shot `-p` run has)
// stores no blob: its delta is the empty ref, and a session with only such prompts has no blob
// channel. Rewinds through it work as before, records of the previous version (a stored `[]`) still
// rewind, and forged empty refs are reported damaged. In-process, real JSONL store.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOB_CHANNEL, BlobWriter, contentHash, emptyRef } from '../../dist/plugins/checkpoints/blobs.js';
import { INDEX_CHANNEL, isIndexRecord, readTimeline } from '../../dist/plugins/checkpoints/records.js';
import { rewind } from '../../dist/plugins/checkpoints/rewind.js';
import { reply, storedSession, user } from './support.js';

/** Prompts, each but the last answered (`done <text>`), then the turn's checkpoint. */
async function prompts(session: Awaited<ReturnType<typeof storedSession>>['session'], ...texts: string[]): Promise<void> {
  for (const [i, text] of texts.entries()) {
    await session.record({ type: 'message', message: user(text) });
    if (i < texts.length - 1) await session.record({ type: 'message', message: reply(`done ${text}`) });
  }
  await session.record({ type: 'checkpoint', reason: 'turn_end' });
}

function sessionFolder(id: string): string {
  const walk = (dir: string): string | undefined => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        const found = walk(join(dir, e.name));
        if (found) return found;
      } else if (e.name === `${id}.jsonl`) return dir;
    }
    return undefined;
  };
  const found = walk(process.env.ASSISTANT_DATA_DIR!);
  if (!found) throw new Error(`no JSONL file for session ${id}`);
  return found;
}

/** Rewrites the session's index file, as a damaged disk, a forger or an older version would have left it. */
function rewriteIndex(id: string, change: (records: Array<Record<string, unknown>>) => Array<Record<string, unknown>>): void {
  const file = join(sessionFolder(id), `${id}.${INDEX_CHANNEL}.jsonl`);
  const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  writeFileSync(file, change(records).map((r) => JSON.stringify(r)).join('\n') + '\n');
}

describe('a prompt with no messages before it', () => {
  it('is the empty ref (the hash of no bytes, no chunks), stored nowhere', () => {
    expect(emptyRef()).toEqual({ hash: contentHash(new Uint8Array()), size: 0, chunks: [] });
  });

  it('is indexed with the empty ref, and a one-prompt session has no blob channel', async () => {
    const { session, store } = await storedSession();
    await session.record({ type: 'message', message: user('hi') });
    await session.record({ type: 'message', message: reply('hello') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });

    const index = await store.readRecords(session.info.id, INDEX_CHANNEL);
    expect(index).toEqual([{ k: 'prompt', seq: 1, time: expect.any(Number), text: 'hi', epoch: 0, index: 0, delta: emptyRef() }]);
    expect(await store.readRecords(session.info.id, BLOB_CHANNEL)).toEqual([]);
    const files = readdirSync(sessionFolder(session.info.id));
    expect(files).toContain(`${session.info.id}.${INDEX_CHANNEL}.jsonl`);
    expect(files.filter((f) => f.includes(BLOB_CHANNEL))).toEqual([]);
  });

  it('rewinds to before the first prompt, and to later prompts through it', async () => {
    const { session, store, target } = await storedSession();
    await prompts(session, 'first', 'second', 'third');
    const deltas = (await readTimeline(store, session.info.id)).prompts.map((p) => p.delta.chunks.length);
    expect(deltas).toEqual([0, 1, 1]); // only the first is empty

    await rewind(target, { prompt: 3, code: false, conversation: true, force: false });
    expect(session.messages).toEqual([user('first'), reply('done first'), user('second'), reply('done second')]);
    await rewind(target, { prompt: 2, code: false, conversation: true, force: false });
    expect(session.messages).toEqual([user('first'), reply('done first')]);
    await rewind(target, { prompt: 1, code: false, conversation: true, force: false });
    expect(session.messages).toEqual([]);
  });

  it('rewinds records of the previous version, whose first delta is a stored `[]`', async () => {
    const { session, store, target } = await storedSession();
    await prompts(session, 'first', 'second');
    const timeline = await readTimeline(store, session.info.id);
    const old = await new BlobWriter(store, session.info.id, timeline.chunks).put(Buffer.from('[]'));
    expect(old).toMatchObject({ size: 2, chunks: [expect.any(String)] });
    rewriteIndex(session.info.id, (records) => records.map((r) => (r.k === 'prompt' && r.seq === 1 ? { ...r, delta: old } : r)));
    expect((await readTimeline(store, session.info.id)).prompts.map((p) => p.delta)).toEqual([old, expect.objectContaining({ size: expect.any(Number) })]);

    await rewind(target, { prompt: 2, code: false, conversation: true, force: false });
    expect(session.messages).toEqual([user('first'), reply('done first')]);
    await rewind(target, { prompt: 1, code: false, conversation: true, force: false });
    expect(session.messages).toEqual([]);
  });
});

describe('forged or damaged empty refs', () => {
  const prompt = (delta: unknown) => ({ k: 'prompt', seq: 1, time: 1, text: 'hi', epoch: 0, index: 0, delta });
  const empty = contentHash(new Uint8Array());

  it('are rejected by the index reader; the empty ref and a stored delta are not', () => {
    expect(isIndexRecord(prompt(emptyRef()))).toBe(true);
    expect(isIndexRecord(prompt({ hash: contentHash(Buffer.from('[]')), size: 2, chunks: [contentHash(Buffer.from('[]'))] }))).toBe(true);

    expect(isIndexRecord(prompt({ hash: empty, size: 2, chunks: [] }))).toBe(false); // no chunks, yet bytes
    expect(isIndexRecord(prompt({ hash: contentHash(Buffer.from('[]')), size: 0, chunks: [] }))).toBe(false); // no chunks, another hash
    expect(isIndexRecord(prompt({ hash: empty, size: 0, chunks: [empty] }))).toBe(false); // chunks of nothing: a delta is never empty
    expect(isIndexRecord(prompt({ hash: empty, size: -1, chunks: [] }))).toBe(false);
    // Only a prompt's delta may be the empty ref: every content stored has a chunk.
    expect(isIndexRecord({ k: 'epoch', seq: 1, n: 1, length: 0, base: emptyRef() })).toBe(false);
    expect(isIndexRecord({ k: 'file', seq: 1, path: 'a.txt', before: emptyRef() })).toBe(false);
  });

  it('in a stored index are reported damaged and skipped; an empty delta that does not fit its prompt refuses', async () => {
    const { session, store, target } = await storedSession();
    await prompts(session, 'first', 'second');
    rewriteIndex(session.info.id, (records) => records.map((r) => (r.k === 'prompt' && r.seq === 1 ? { ...r, delta: { hash: empty, size: 40, chunks: [] } } : r)));
    const timeline = await readTimeline(store, session.info.id);
    expect(timeline.warnings).toEqual(['checkpoint record 1 is damaged; skipped']);
    expect(timeline.prompts.map((p) => p.text)).toEqual(['second']);

    // A well-formed empty ref still has to account for the messages its prompt was recorded after.
    rewriteIndex(session.info.id, (records) => records.map((r) => (r.k === 'prompt' && r.seq === 1 ? { ...r, delta: emptyRef(), index: 1 } : r)));
    await expect(rewind(target, { prompt: 1, code: false, conversation: true, force: false })).rejects.toMatchObject({ code: 'ASSISTANT_CHECKPOINT_CORRUPT', message: expect.stringContaining('0 messages where 1 were recorded') });
    expect(session.messages).toHaveLength(3);
  });

  it('a delta pointing at stored content that is not messages (a saved file) refuses as damaged', async () => {
    const { t, session, target } = await storedSession({ 'notes.txt': 'not json\n' });
    await session.record({ type: 'message', message: user('first') });
    await t.callTools([{ name: 'Read', input: { file_path: 'notes.txt' } }]);
    await t.callTools([{ name: 'Write', input: { file_path: 'notes.txt', content: 'changed\n' } }]);
    await session.record({ type: 'message', message: reply('done first') });
    await session.record({ type: 'message', message: user('second') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    rewriteIndex(session.info.id, (records) => {
      const saved = records.find((r) => r.k === 'file')!.before;
      return records.map((r) => (r.k === 'prompt' && r.seq === 2 ? { ...r, delta: saved } : r));
    });
    await expect(rewind(target, { prompt: 2, code: false, conversation: true, force: false })).rejects.toMatchObject({ code: 'ASSISTANT_CHECKPOINT_CORRUPT', message: expect.stringContaining('not a list of messages') });
    expect(session.messages).toHaveLength(3);
  });
});
