// Rewinds that must refuse and change nothing: a damaged saved content, a file replaced by a symlink
// leading out of the project, a folder swapped for one; and a conversation rewind across a
// compaction, rebuilt from the epoch's start and the prompts' deltas. In-process, real JSONL store.
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestKernel } from '@assistant-cli/assistant/testing';
import { tempDir } from '../support/project.js';
import { rewind } from '../../dist/plugins/checkpoints/rewind.js';
import { reply, storedSession, user } from './support.js';

let t: TestKernel | undefined;

async function twoPrompts() {
  const stored = await storedSession({ 'src/app.txt': 'original\n' });
  const { session, target } = stored;
  t = stored.t;
  await session.record({ type: 'message', message: user('first') });
  await t.callTools([{ name: 'Read', input: { file_path: 'src/app.txt' } }]);
  await t.callTools([{ name: 'Write', input: { file_path: 'src/app.txt', content: 'changed\n' } }]);
  await session.record({ type: 'message', message: reply('done first') });
  await session.record({ type: 'message', message: user('second') });
  await t.callTools([{ name: 'Write', input: { file_path: 'src/new.txt', content: 'new\n' } }]);
  await session.record({ type: 'checkpoint', reason: 'turn_end' });
  return { session, target };
}

function channelFile(name: string): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(name)) found.push(join(dir, e.name));
    }
  };
  walk(process.env.ASSISTANT_DATA_DIR!);
  return found.at(-1)!;
}

describe('rewind safety', () => {
  it('refuses a damaged saved content, changing nothing', async () => {
    const { session, target } = await twoPrompts();
    const blobs = channelFile('.checkpoint-blobs.jsonl');
    const lines = readFileSync(blobs, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { h: string; z: string });
    // Replace every chunk's data with valid deflated data of other bytes: only the hash check can catch it.
    const { deflateRawSync } = await import('node:zlib');
    writeFileSync(blobs, lines.map((r) => JSON.stringify({ h: r.h, z: deflateRawSync(Buffer.from('tampered')).toString('base64') })).join('\n') + '\n');
    await expect(rewind(target, { prompt: 1, code: true, conversation: true, force: false })).rejects.toMatchObject({ code: 'ASSISTANT_CHECKPOINT_CORRUPT' });
    expect(t!.read('src/app.txt')).toBe('changed\n');
    expect(t!.read('src/new.txt')).toBe('new\n');
    expect(session.messages).toHaveLength(3);
  });

  it('refuses when a restored file is now a symlink out of the project, or its folder leads elsewhere', async () => {
    const { target } = await twoPrompts();
    const outside = tempDir('assistant-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'outside\n');
    rmSync(join(t!.projectRoot, 'src/app.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(t!.projectRoot, 'src/app.txt'));
    await expect(rewind(target, { prompt: 1, code: true, conversation: false, force: true })).rejects.toMatchObject({ code: 'ASSISTANT_REWIND_UNSAFE', message: expect.stringContaining('src/app.txt is now a symbolic link') });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
    expect(t!.read('src/new.txt')).toBe('new\n'); // nothing half-done

    // The folder itself swapped for a link leading out.
    rmSync(join(t!.projectRoot, 'src'), { recursive: true });
    mkdirSync(join(outside, 'src'));
    symlinkSync(join(outside, 'src'), join(t!.projectRoot, 'src'));
    await expect(rewind(target, { prompt: 1, code: true, conversation: false, force: true })).rejects.toMatchObject({ code: 'ASSISTANT_REWIND_UNSAFE' });
    expect(readdirSync(join(outside, 'src'))).toEqual([]);
  });

  it('rewinds the conversation across a compaction, from the epoch start and the deltas', async () => {
    const { session, target } = await twoPrompts();
    const before2 = [user('first'), reply('done first')];
    expect(session.messages).toEqual([...before2, user('second')]);
    await session.record({ type: 'message', message: reply('done second') });
    await session.record({ type: 'compaction', messages: [user('summary of all that')], tokensBefore: 100, tokensAfter: 10 });
    await session.record({ type: 'message', message: reply('after the summary') });
    await session.record({ type: 'message', message: user('third') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });

    await rewind(target, { prompt: 3, code: false, conversation: true, force: false });
    expect(session.messages).toEqual([user('summary of all that'), reply('after the summary')]);
    await rewind(target, { prompt: 2, code: false, conversation: true, force: false });
    expect(session.messages).toEqual(before2);
    await session.record({ type: 'message', message: user('fourth') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    await expect(rewind(target, { prompt: 3, code: false, conversation: true, force: false })).rejects.toMatchObject({ code: 'ASSISTANT_REWIND_NO_PROMPT' });
    await rewind(target, { prompt: 2, code: false, conversation: true, force: false });
    expect(session.messages).toEqual(before2);
    await rewind(target, { prompt: 1, code: true, conversation: true, force: false });
    expect(session.messages).toEqual([]);
    expect(t!.read('src/app.txt')).toBe('original\n');
  });
});
