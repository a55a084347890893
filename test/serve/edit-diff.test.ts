import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionRequest } from '@assistant-cli/assistant';
import { diffForRequest } from '../../dist/plugins/surface-serve/edit-diff.js';
import { EventLog } from '../../dist/plugins/surface-serve/event-log.js';
import { makeProject } from '../support/project.js';

const request = (projectRoot: string, tool: string, input: Record<string, unknown>): PermissionRequest => ({ tool, input, category: 'edit', paths: [], projectRoot, cwd: projectRoot, mode: 'default', headless: false });

describe('the diff an approval shows', () => {
  it('is computed from the file for an Edit inside the project, with context lines', async () => {
    const dir = makeProject({ 'a.txt': 'one\ntwo\nthree\nfour\n' });
    const diff = await diffForRequest(request(dir, 'Edit', { file_path: 'a.txt', old_string: 'three', new_string: 'THREE' }));
    expect(diff!.partial).toBeUndefined();
    expect(diff!.hunks[0]!.lines).toEqual([' one', ' two', '-three', '+THREE', ' four']);
  });

  it('never reads a file outside the project, even through a symlink inside it: only the strings are shown', async () => {
    const outside = makeProject({ 'secret.txt': 'token = hunter2\nother = 1\n' });
    const dir = makeProject({});
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
    for (const file_path of [join(outside, 'secret.txt'), 'link.txt']) {
      const diff = await diffForRequest(request(dir, 'Edit', { file_path, old_string: 'other = 1', new_string: 'other = 2' }));
      expect(diff!.partial).toBe(true);
      expect(JSON.stringify(diff)).not.toContain('hunter2');
    }
    const write = await diffForRequest(request(dir, 'Write', { file_path: 'link.txt', content: 'x\n' }));
    expect(write!.partial).toBe(true);
    expect(JSON.stringify(write)).not.toContain('hunter2');
  });

  it('shows a Write of a new file as all added, and a MultiEdit as its steps applied in order', async () => {
    const dir = makeProject({ 'm.txt': 'a\nb\n' });
    const created = await diffForRequest(request(dir, 'Write', { file_path: 'new.txt', content: 'hello\n' }));
    expect([created!.partial, created!.hunks[0]!.lines]).toEqual([undefined, ['+hello']]);
    const multi = await diffForRequest(request(dir, 'MultiEdit', { file_path: 'm.txt', edits: [{ old_string: 'a', new_string: 'b2' }, { old_string: 'b2', new_string: 'c' }] }));
    expect(multi!.hunks[0]!.lines).toEqual(['-a', '+c', ' b']);
    writeFileSync(join(dir, 'm.txt'), 'x');
    expect(await diffForRequest(request(dir, 'Bash', { command: 'ls' }))).toBeUndefined();
    expect(await diffForRequest(request(dir, 'MultiEdit', { file_path: 'm.txt', edits: 'nope' }))).toBeUndefined();
  });
});

describe('the event log a stream resumes from', () => {
  it('replays exactly the events after an id, then follows; an id it no longer holds is a gap', () => {
    const log = new EventLog(3);
    for (let i = 1; i <= 5; i++) log.append('state', { i });
    expect([log.holds(1), log.holds(2), log.holds(5), log.holds(6)]).toEqual([false, true, true, false]);
    const seen: number[] = [];
    const stop = log.follow(3, (e) => seen.push(e.id));
    log.append('state', { i: 6 });
    stop();
    log.append('state', { i: 7 });
    expect(seen).toEqual([4, 5, 6]);
  });
});
