import { afterEach, describe, expect, it } from 'vitest';
import { type Kernel } from '../../dist/core/index.js';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { stripAnsi } from '../../dist/plugins/ui-terminal/terminal/width.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv } from '../support/project.js';
import { startAppOn } from '../ui/support.js';
import { kernelFor, scriptedProject } from './helpers.js';

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown('done');
});

/** Two stored sessions made by the built CLI, then the interactive app on a fresh session in the same project. */
async function setup() {
  const dir = scriptedProject({ turns: 2 });
  const env = isolatedEnv();
  for (const prompt of ['first task', 'second task']) expect((await runCli(['--trust-project', '-p', prompt], { cwd: dir, env })).code).toBe(0);
  const listed = JSON.parse((await runCli(['--trust-project', 'sessions', 'list', '--json'], { cwd: dir, env })).stdout) as Array<{ id: string; title: string }>;
  const first = listed.find((s) => s.title === 'first task')!.id;

  const kernel = await kernelFor(dir, env.ASSISTANT_DATA_DIR!);
  kernels.push(kernel);
  kernel.hooks.commands.call(kernel.commands);
  await kernel.start();
  const session = await openSession(kernel, { projectRoot: dir, mode: 'default' });
  kernel.session = session;
  const ui = startAppOn(kernel, session, env, { columns: 100, rows: 30 });
  /** Types a line and waits until the screen shows `shows`. */
  const type = async (text: string, shows: string) => {
    ui.input.write(`${text}\r`);
    await ui.until(shows);
  };
  return { dir, env, kernel, app: ui.app, first, type, screen: () => stripAnsi(ui.screen()), newSession: session.info.id };
}

describe('/sessions and /resume in the interactive UI', () => {
  it("lists the project's sessions and continues one in place, holding it against other surfaces", async () => {
    const { dir, env, kernel, app, first, type, screen, newSession } = await setup();
    await type('/sessions', 'second task');
    expect(screen()).toMatch(new RegExp(`${first.slice(0, 8)} .*"first task"`));
    expect(screen()).toMatch(/"second task"/);

    await type(`/resume ${first.slice(0, 6)}`, 'Resumed session');
    expect(screen()).toContain(`Resumed session ${first.slice(0, 8)} "first task" (4 messages).`);
    expect(screen()).toContain('you: first task');
    expect(app.runner.session.info.id).toBe(first);
    expect(kernel.session?.info.id).toBe(first);
    expect(app.runner.session.messages).toHaveLength(4);
    expect(app.runner.session.info.id).not.toBe(newSession);

    // The UI holds the resumed session: another process cannot write it meanwhile.
    const other = await runCli(['--trust-project', '--resume', first, '-p', 'meanwhile'], { cwd: dir, env });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('ASSISTANT_SESSION_IN_USE');

    await type(`/resume ${first.slice(0, 8)}`, 'Already in session');
    expect(screen()).toContain(`Already in session ${first.slice(0, 8)}.`);
    await type('/resume ffffffff', 'ASSISTANT_SESSION_NOT_FOUND');
    expect(screen()).toContain('ASSISTANT_SESSION_NOT_FOUND: no stored session starts with "ffffffff"');
    expect(app.runner.session.info.id).toBe(first);
  });

  it('explains itself outside the interactive UI', async () => {
    const { kernel } = await setup();
    const printed: string[] = [];
    const answer = await kernel.commands.slash('resume')!.run('abc', { print: (t) => void printed.push(t) });
    expect(answer).toBe('/resume works in the interactive UI; from a shell run: assistant --resume <id>');
  });
});
