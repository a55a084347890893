import { describe, expect, it } from 'vitest';
import { type ApprovalRequest } from '../../dist/core/index.js';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { INTERRUPT_MESSAGE } from '../../dist/plugins/ui-terminal/approval/prompt.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { bootKernel, scriptedConfig, startAppOn } from './support.js';
import { pollUntil } from '../support/wait.js';

const env = isolatedEnv();

/** A started app on in-memory streams: keys go in as terminal bytes, frames come out as text. */
async function startApp() {
  const dir = makeProject({ '.assistantrc': scriptedConfig(), 'a.ts': 'one\n' });
  const kernel = await bootKernel(dir, env);
  const session = await openSession(kernel, { projectRoot: dir, mode: 'default' });
  kernel.session = session;
  return { ...startAppOn(kernel, session, env), kernel, dir };
}

const edit = (dir: string, file: string): ApprovalRequest => ({
  request: { tool: 'Edit', input: { file_path: file, old_string: 'one', new_string: 'two' }, category: 'edit', paths: [file], projectRoot: dir, cwd: dir, mode: 'default', headless: false },
  decision: { behavior: 'ask', reason: 'edits need approval', layer: 'test' },
});

describe('the terminal app', () => {
  it('asks batches that arrive together one after the other', async () => {
    const { app, dir, press, screen, until } = await startApp();
    const first = app.approve([edit(dir, 'a.ts')]);
    const second = app.approve([edit(dir, 'b.ts')]);
    expect(await until('Allow Edit a.ts?')).toContain('Allow Edit a.ts?');
    expect(screen()).not.toContain('Allow Edit b.ts?');
    await press('1');
    expect(await first).toEqual([{ behavior: 'allow', scope: 'once' }]);
    expect(await until('Allow Edit b.ts?')).toContain('Allow Edit b.ts?');
    await press('n');
    await press('not that file');
    await press('\r');
    expect(await second).toEqual([{ behavior: 'deny', scope: 'once', message: 'not that file' }]);
    expect(await until('✗ denied Edit b.ts: not that file')).toContain('✗ denied Edit b.ts: not that file');
  });

  it('denies the open batch and every waiting one on Esc, without asking', async () => {
    const { app, dir, press, screen, until } = await startApp();
    const first = app.approve([edit(dir, 'a.ts'), edit(dir, 'a.ts')]);
    const second = app.approve([edit(dir, 'b.ts')]);
    await until('Allow Edit a.ts?');
    await press('\x1b');
    const denied = { behavior: 'deny', scope: 'once', message: INTERRUPT_MESSAGE };
    expect(await first).toEqual([denied, denied]);
    expect(await second).toEqual([denied]);
    expect(screen()).not.toContain('Allow Edit b.ts?');
  });

  it('shows the diff from the file on disk before asking', async () => {
    const { app, dir, press, screen, until } = await startApp();
    const answer = app.approve([edit(dir, 'a.ts')]);
    await until('Allow Edit a.ts?');
    expect(screen()).toContain('◆ Edit a.ts');
    expect(screen()).toContain('1 - one');
    expect(screen()).toContain('1 + two');
    await press('y');
    await answer;
  });

  it('sends a message typed during the last reply as the next prompt, never drops it', async () => {
    const { kernel, input, press, screen, until } = await startApp();
    let typed = false;
    const answers: string[] = [];
    kernel.hooks.event.tap('test-type', (event) => {
      if (event.type === 'done') answers.push(event.text);
      // While the final answer streams: no tool call follows, so the loop will not drain the queue.
      if (typed || event.type !== 'model' || event.event.type !== 'text_delta') return;
      typed = true;
      input.write('also the tests\r');
    });
    await press('Please explain the project\r');
    await pollUntil(() => answers.length >= 2);
    await until('(queued)');
    expect(typed).toBe(true);
    expect(screen()).toContain('› also the tests  (queued)');
    expect(answers[1]).toBe('You said: also the tests');
    const prompts = kernel.session!.messages.filter((m) => m.role === 'user').map((m) => (m.content[0] as { text: string }).text);
    expect(prompts).toEqual(['Please explain the project', 'also the tests']);
  });

  it('exits with 0 on Ctrl+D at an empty prompt and gives the terminal back', async () => {
    const { press, done, screen } = await startApp();
    await press('\x04');
    expect(await done).toBe(0);
    expect(screen()).toContain('\x1b[?2004l'); // bracketed paste off again
    expect(screen()).toMatch(/session [0-9a-f-]{36}/);
  });
});
