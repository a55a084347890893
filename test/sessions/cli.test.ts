import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectDataDir } from '../../dist/core/index.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, tempDir } from '../support/project.js';
import { scriptedProject, startCli, waitFor, writeScriptedConfig } from './helpers.js';

// The scripted test project loads its own provider plugin: the user trusts it.
const cli = (dir: string, env: NodeJS.ProcessEnv, ...args: string[]) => runCli(['--trust-project', ...args], { cwd: dir, env });
const listJson = async (dir: string, env: NodeJS.ProcessEnv, ...extra: string[]) => JSON.parse((await cli(dir, env, 'sessions', 'list', '--json', ...extra)).stdout) as Array<{ id: string; title: string; messageCount: number; inUseBy?: string; projectRoot: string }>;
const showJson = async (dir: string, env: NodeJS.ProcessEnv, id: string) => JSON.parse((await cli(dir, env, 'sessions', 'show', id, '--json')).stdout);

describe('session flags and subcommands (built CLI)', () => {
  it('continues, resumes by prefix, forks, and explains what it cannot resume', async () => {
    const dir = scriptedProject({ turns: 2 });
    const env = isolatedEnv();
    expect((await cli(dir, env, '--continue', '-p', 'x')).stderr).toMatch(/ASSISTANT_SESSION_NOT_FOUND: no previous session to continue in /);

    expect((await cli(dir, env, '-p', 'first task')).code).toBe(0);
    const [first] = await listJson(dir, env);
    expect(first).toMatchObject({ title: 'first task', messageCount: 4, projectRoot: dir });

    const continued = await cli(dir, env, '--continue', '-p', 'second task');
    expect(continued.code).toBe(0);
    expect(continued.stdout).toContain('Finished "second task"');
    const byPrefix = await cli(dir, env, '--resume', first!.id.slice(0, 6), '-p', 'third task');
    expect(byPrefix.code).toBe(0);
    const shown = await showJson(dir, env, first!.id.slice(0, 8));
    expect(shown.messages.filter((m: { role: string; meta?: { origin?: string } }) => m.role === 'user' && m.meta?.origin === 'user')).toHaveLength(3);
    expect(shown.info.id).toBe(first!.id);

    const forked = await cli(dir, env, '--resume', first!.id, '--fork-session', '-p', 'branch off', '--output-format', 'json');
    expect(forked.code).toBe(0);
    const forkId = JSON.parse(forked.stdout).session_id;
    expect(forkId).not.toBe(first!.id);
    const fork = await showJson(dir, env, forkId);
    expect(fork.info.forkedFrom).toBe(first!.id);
    expect(fork.messages).toHaveLength(shown.messages.length + 4);
    expect((await showJson(dir, env, first!.id)).messages).toHaveLength(shown.messages.length);

    const noId = await cli(dir, env, '--resume', '-p', 'which?');
    expect(noId.code).toBe(2);
    expect(noId.stderr).toMatch(/ASSISTANT_USAGE: --resume needs a session id when there is no terminal to pick one on; recent sessions of this project:\n  [0-9a-f]{8} .* 16 msg +"first task"\n  [0-9a-f]{8} .* 12 msg +"first task"\nrun: assistant --resume <id> -p "<prompt>" \(an id prefix is enough\)\n$/);
    const unknown = await cli(dir, env, '--resume', 'ffffffff', '-p', 'x');
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'ASSISTANT_SESSION_NOT_FOUND: no stored session id starts with "ffffffff" (in this project or any other); list them with: assistant sessions list --all']);
    expect((await cli(dir, env, '--fork-session', '-p', 'x')).stderr).toContain('ASSISTANT_USAGE: --fork-session needs --continue or --resume <id>');
  });

  it('shows, exports as Markdown and JSON, deletes and prunes', async () => {
    const dir = scriptedProject({ turns: 2 });
    const env = isolatedEnv();
    await cli(dir, env, '-p', 'old work');
    await cli(dir, env, '-p', 'new work');
    const [newer, older] = await listJson(dir, env);
    expect([newer!.title, older!.title]).toEqual(['new work', 'old work']);

    const text = await cli(dir, env, 'sessions', 'show', newer!.id.slice(0, 8));
    expect(text.stdout).toMatch(/^session {6}[0-9a-f-]{36}\ntitle {8}new work\nproject {6}.*\ncreated .*\nactive .*\nmodel {8}scripted\/scripted-1\nmode {9}default\nmessages {5}4 \(user 1, assistant 2, tool 1\)\ntokens {7}201 in, 20 out, 90 cache read, 90 cache write/);

    const md = await cli(dir, env, 'sessions', 'export', newer!.id, '--format', 'markdown');
    expect(md.stdout).toMatch(/^# new work\n\n- Session: `[0-9a-f-]{36}`\n/);
    expect(md.stdout).toContain('## User\n\nnew work\n\n## Assistant\n\nStep 1 for "new work".\n\n**Tool call** `Note`');
    expect(md.stdout).toContain('**Tool result** (`call_8_1`)\n\n```\nnoted 1\n```');
    const out = join(tempDir(), 'export.json');
    expect((await cli(dir, env, 'sessions', 'export', newer!.id, '--format', 'json', '-o', out)).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).messages).toHaveLength(4);
    expect((await cli(dir, env, 'sessions', 'export', newer!.id, '--format', 'pdf')).stderr).toContain('--format must be markdown or json');

    // Age the older session by 40 days in its metadata, then prune what is idle for 30.
    const sessions = join(projectDataDir(dir, env), 'sessions');
    const metaFile = join(sessions, `${older!.id}.meta.json`);
    const longAgo = Date.now() - 40 * 86_400_000;
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')), lastActiveAt: longAgo }));
    utimesSync(join(sessions, `${older!.id}.jsonl`), longAgo / 1000, longAgo / 1000);
    const dry = await cli(dir, env, 'sessions', 'prune', '--older-than', '30d', '--dry-run');
    expect(dry.stdout).toMatch(/would delete [0-9a-f]{8} .*"old work"\n1 session\(s\) would be deleted/);
    expect(existsSync(metaFile)).toBe(true);
    const pruned = await cli(dir, env, 'sessions', 'prune', '--older-than', '30d');
    expect(pruned.stdout).toContain('1 session(s) deleted');
    expect(existsSync(metaFile)).toBe(false);
    expect((await cli(dir, env, 'sessions', 'prune', '--older-than', 'soon')).stderr).toContain('--older-than wants a duration like 30d');

    expect((await cli(dir, env, 'sessions', 'delete', newer!.id.slice(0, 8))).stdout.trim()).toBe(`deleted ${newer!.id}`);
    expect((await cli(dir, env, 'sessions', 'list')).stdout).toMatch(/^no sessions for /);
  });

  it('lets one process hold a session: a second is refused with where it is in use, --take-over takes it and the first stops', async () => {
    const dir = scriptedProject({ turns: 2 });
    const env = isolatedEnv();
    await cli(dir, env, '-p', 'shared');
    const [session] = await listJson(dir, env);
    // A slow, long run holds the session.
    writeScriptedConfig(dir, { turns: 400, delayMs: 15 });
    const holder = startCli(['--resume', session!.id, '-p', 'long job'], { cwd: dir, env });
    await waitFor(async () => ((await listJson(dir, env))[0]?.inUseBy ? true : undefined));

    const refused = await cli(dir, env, '--resume', session!.id, '-p', 'me too');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ASSISTANT_SESSION_IN_USE: session [0-9a-f]{8} is in use on .+@.+ \(pid \d+, since .+\); close it there, or pass --take-over to take it over/);
    expect((await listJson(dir, env))[0]!.inUseBy).toMatch(/@/);
    expect((await cli(dir, env, 'sessions', 'delete', session!.id)).stderr).toContain('ASSISTANT_SESSION_IN_USE');

    writeScriptedConfig(dir, { turns: 2 });
    const took = await cli(dir, env, '--resume', session!.id, '--take-over', '-p', 'mine now');
    expect(took.code).toBe(0);
    const first = await holder.done;
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/session [0-9a-f]{8} was taken over by (.+@.+|another surface \(which has since released it\)); this surface stopped writing to it/);
    const history = (await showJson(dir, env, session!.id)).messages as Array<{ role: string; content: Array<{ text?: string }> }>;
    expect(history.some((m) => m.role === 'user' && m.content[0]?.text === 'mine now')).toBe(true);
  });
});
