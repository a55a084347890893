import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { isolatedEnv, tempDir } from '../support/project.js';
import { scriptedProject, waitFor } from './helpers.js';

function tmuxAvailable(): boolean {
  if (spawnSync('sh', ['-c', 'command -v tmux']).status === 0) return true;
  if (process.env.CI === 'true') throw new Error('tmux is not installed, and CI=true requires the terminal picker test to run');
  console.warn('skipping the --resume picker test: tmux is not installed');
  return false;
}

describe.skipIf(!tmuxAvailable())('--resume without an id on a terminal', () => {
  it('lists the recent sessions and resumes the one picked', async () => {
    const dir = scriptedProject({ turns: 2 });
    const env = isolatedEnv();
    for (const prompt of ['oldest', 'middle', 'newest']) expect((await runCli(['--trust-project', '-p', prompt], { cwd: dir, env })).code).toBe(0);
    const sessions = JSON.parse((await runCli(['--trust-project', 'sessions', 'list', '--json'], { cwd: dir, env })).stdout) as Array<{ id: string; title: string }>;

    const out = tempDir();
    const script = join(out, 'run.sh');
    const exports = Object.entries(env)
      .filter(([k, v]) => v !== undefined && /^[A-Z_][A-Z0-9_]*$/.test(k))
      .map(([k, v]) => `export ${k}='${String(v).replace(/'/g, `'\\''`)}'`)
      .join('\n');
    writeFileSync(script, `${exports}\ncd '${dir}'\n'${process.execPath}' '${CLI}' --resume -p 'picked' > '${out}/stdout'\necho $? > '${out}/code'\n`);
    const session = `assistant-picker-${process.pid}`;
    const tmux = (...args: string[]) => spawnSync('tmux', args, { encoding: 'utf8' });
    expect(tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', `sh '${script}'`).status).toBe(0);
    try {
      await waitFor(() => (tmux('capture-pane', '-p', '-t', session).stdout.includes('Resume which session?') ? true : undefined));
      const screen = tmux('capture-pane', '-p', '-t', session).stdout;
      expect(screen).toMatch(/1\. [0-9a-f]{8} .*"newest"\n\s+2\. [0-9a-f]{8} .*"middle"\n\s+3\. [0-9a-f]{8} .*"oldest"/);
      tmux('send-keys', '-t', session, '2', 'Enter');
      await waitFor(() => (existsSync(join(out, 'code')) ? true : undefined));
    } finally {
      tmux('kill-session', '-t', session);
    }
    expect(readFileSync(join(out, 'code'), 'utf8').trim()).toBe('0');
    expect(readFileSync(join(out, 'stdout'), 'utf8')).toContain('Finished "picked" after 2 turns.');
    const middle = sessions.find((s) => s.title === 'middle')!;
    const shown = JSON.parse((await runCli(['--trust-project', 'sessions', 'show', middle.id, '--json'], { cwd: dir, env })).stdout);
    expect(shown.messages.at(-1).content[0].text).toBe('Finished "picked" after 2 turns.');
  });
});
