// One session moving across every surface (UC4): the terminal UI in tmux, the web server, the
// terminal again, an editor over ACP, and a headless run. All real parts: the built CLI, `assistant
// serve` over HTTP, `assistant acp` with the ACP SDK's client, the jsonl store, the fake LLM server.
import { hostname } from 'node:os';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { gitProject, sharedFakeLlm } from '../e2e/support.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv } from '../support/project.js';
import { conversationOf, storedLines } from '../support/stored-session.js';
import { call, readEvents, startServe, type Served } from '../serve/support.js';
import { TmuxTerminal, tmuxAvailable } from '../ui/tmux.js';
import { startEditor, type Editor } from './acp-support.js';

const hasTmux = tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('tmux is needed for the hand-off test (CI installs it)');
if (!hasTmux) console.warn('skipping the hand-off across surfaces: tmux is not installed');

const llm = sharedFakeLlm();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TURNS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
const SCRIPT = {
  turns: TURNS.map((n) => ({ name: n, when: { userText: `${n} prompt` }, reply: { text: `${n} answer` } })),
  fallback: { text: 'UNEXPECTED REQUEST' },
};

const host = hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.skipIf(!hasTmux)('hand-off across surfaces', () => {
  it('terminal → web → terminal → editor (ACP) → headless → editor: each losing surface says where the session went, and every event is stored once', async () => {
    llm.script(SCRIPT);
    const dir = gitProject({ 'README.md': '# demo\n' });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: llm.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key', ASSISTANT_SERVE_LEASE_CHECK_MS: '200' });

    // 1. The terminal starts the session.
    const first = TmuxTerminal.start({ cwd: dir, env, width: 120 });
    cleanups.push(() => first.close());
    await first.waitFor('default mode');
    first.type('first prompt');
    first.keys('Enter');
    await first.waitFor('first answer');
    await first.waitFor('› Ask anything');
    const [row] = JSON.parse((await runCli(['sessions', 'list', '--json'], { cwd: dir, env })).stdout) as Array<{ id: string }>;
    const id = row!.id;

    // 2. The web takes it: refused while the terminal holds it (naming the terminal), then taken over explicitly.
    const served: Served = await startServe(dir, env);
    cleanups.push(() => served.stop());
    const refused = await call(served, 'POST', `/api/sessions/${id}/attach`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('ASSISTANT_SESSION_IN_USE');
    const attached = await call(served, 'POST', `/api/sessions/${id}/attach`, { body: { take_over: true } });
    expect(attached.status).toBe(200);
    expect(JSON.stringify(attached.json.messages)).toContain('first answer');
    // The terminal noticed, named the web server as where the session went, and left.
    const gone = await first.waitFor('[exit 1]', { inHistory: true });
    expect(gone).toMatch(new RegExp(`session ${id.slice(0, 8)} continued in serve \\(${served.origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) on host ${host} \\(pid ${served.child.pid}\\)`));
    expect((await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'second prompt' } })).status).toBe(202);
    const web = await readEvents(served, id, (e) => e.some((x) => x.data.type === 'result'), { after: 0 });
    expect(web.find((e) => e.data.type === 'result')!.data.text).toBe('second answer');
    await expect.poll(async () => (await call(served, 'GET', `/api/sessions/${id}`)).json.busy, { timeout: 60_000 }).toBe(false);

    // 3. Back to the terminal, taking it over; the web says where it went and refuses prompts.
    const again = TmuxTerminal.start({ cwd: dir, env, width: 120, args: ['--resume', id, '--take-over'] });
    cleanups.push(() => again.close());
    await again.waitFor('default mode');
    const lost = await readEvents(served, id, (e) => e.some((x) => x.event === 'lease_lost'), { after: 0 });
    expect(lost.find((e) => e.event === 'lease_lost')!.data.where).toMatch(new RegExp(`^terminal on host ${host} \\(pid \\d+\\)$`));
    const webRefused = await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'not sent' } });
    expect(webRefused.json.error.code).toBe('ASSISTANT_SERVE_LEASE_LOST');
    expect(webRefused.json.error.message).toContain('terminal on host');
    again.type('third prompt');
    again.keys('Enter');
    await again.waitFor('third answer');
    await again.waitFor('› Ask anything');
    again.keys('C-d');
    await again.waitFor('[exit 0]', { inHistory: true });

    // 4. An editor loads it over ACP and prompts.
    const editor: Editor = startEditor(dir, env);
    cleanups.push(() => editor.close());
    await editor.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: { name: 'test-editor', version: '1.0' } });
    await editor.agent.request('session/load', { sessionId: id, cwd: dir, mcpServers: [] });
    expect((await editor.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text: 'fourth prompt' }] })).stopReason).toBe('end_turn');

    // 5. A headless run is refused (naming the editor), takes it over, and the editor is told where it went.
    const headlessRefused = await runCli(['-p', '--resume', id, 'not sent'], { cwd: dir, env });
    expect(headlessRefused.code).not.toBe(0);
    expect(headlessRefused.stderr).toMatch(/ASSISTANT_SESSION_IN_USE: session [0-9a-f]{8} is in use on acp \(test-editor\) at .+@.+ \(pid \d+, since .+\); close it there/);
    const headless = await runCli(['-p', '--resume', id, '--take-over', 'fifth prompt'], { cwd: dir, env });
    expect(headless.code).toBe(0);
    expect(headless.stdout).toContain('fifth answer');
    await expect(editor.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text: 'not sent' }] })).rejects.toMatchObject({
      message: expect.stringMatching(new RegExp(`ASSISTANT_ACP_LEASE_LOST: session ${id.slice(0, 8)} continued in headless on host ${host} \\(pid \\d+\\)`)),
    });
    // The editor loads it again (the headless run is done) and carries on.
    await editor.agent.request('session/load', { sessionId: id, cwd: dir, mcpServers: [] });
    expect((await editor.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text: 'sixth prompt' }] })).stopReason).toBe('end_turn');

    // Every prompt and answer is stored once, in order; the model saw the whole history each time.
    const lines = storedLines(env.ASSISTANT_DATA_DIR!, id);
    expect(conversationOf(lines)).toEqual(TURNS.flatMap((n) => [`${n} prompt`, `${n} answer`]));
    expect(lines.filter((l) => l.e.type === 'session_start')).toHaveLength(1);
    expect(lines.filter((l) => l.e.type === 'resume').map((l) => l.e.owner?.kind)).toEqual(['serve', 'terminal', 'acp', 'headless', 'acp']);
    const last = JSON.stringify(llm.server.requests.at(-1)!.body);
    for (const n of TURNS.slice(0, 5)) expect(last).toContain(`${n} answer`);
    expect(JSON.stringify(llm.server.requests.map((r) => r.body))).not.toContain('not sent');
  }, 240_000);
});
