// The terminal's trust question: on the first interactive run in a project whose settings widen
// what assistant may do, nothing of those settings loads until the user answers yes; no means the
// project runs without them, and a yes is remembered.
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, makeProject } from '../support/project.js';
import { scriptedConfig } from './support.js';
import { TmuxTerminal, tmuxAvailable } from './tmux.js';

const hasTmux = tmuxAvailable();
if (!hasTmux && !process.env.CI) console.log('skipping the trust question tests: tmux is not installed');
const terminals: TmuxTerminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

function start(dir: string, env: NodeJS.ProcessEnv): TmuxTerminal {
  const term = TmuxTerminal.start({ cwd: dir, env, width: 100 });
  terminals.push(term);
  return term;
}

describe.skipIf(!hasTmux && !process.env.CI)('the trust question in the terminal', () => {
  it('lists what the project would widen, loads it on yes, and does not ask again', async () => {
    const env = isolatedEnv();
    // The scripted project loads its own provider plugin and disables built-ins: only trust allows that.
    const dir = makeProject({ '.assistantrc': scriptedConfig() });
    const first = start(dir, env);
    const question = await first.waitFor('Trust it? [y/N]', { timeoutMs: 30_000 });
    expect(question).toContain('.assistantrc /plugins');
    first.type('y');
    first.keys('Enter');
    await first.waitFor('default mode (shift+tab)', { timeoutMs: 30_000 });
    first.close();

    const second = start(dir, env);
    const screen = await second.waitFor('default mode (shift+tab)', { timeoutMs: 30_000 });
    expect(screen).not.toContain('Trust it?');
  }, 90_000);

  it('on no, runs without the widening settings and says what was ignored', async () => {
    const env = isolatedEnv();
    const dir = makeProject({ '.assistantrc': JSON.stringify({ permissions: { mode: 'bypass' } }) });
    const term = start(dir, env);
    await term.waitFor('Trust it? [y/N]', { timeoutMs: 30_000 });
    term.type('n');
    term.keys('Enter');
    const screen = await term.waitFor(/not trusted[\s\S]*\/permissions\/mode|default mode/, { timeoutMs: 30_000, inHistory: true });
    expect(screen).not.toMatch(/bypass/i);
  }, 90_000);
});
