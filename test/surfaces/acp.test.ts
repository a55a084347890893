// `assistant acp` driven by the ACP SDK's own client as the editor, against the fake LLM server:
// streamed text and thoughts, a tool call with its diff, permission requests answered by the
// editor, cancel mid-turn, plan updates, and a session loaded again later (and resumed with -p).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { gitProject, jsonLines, runHeadless, sharedFakeLlm } from '../e2e/support.js';
import { isolatedEnv } from '../support/project.js';
import { pollUntil } from '../support/wait.js';
import { chunkText, choose, startEditor, updatesOf, type Editor } from './acp-support.js';

const fake = sharedFakeLlm();
const open: Editor[] = [];
afterEach(async () => {
  for (const editor of open.splice(0)) if (editor.child.exitCode === null) editor.child.kill('SIGKILL');
});

function editorIn(dir: string, env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL })): Editor {
  const editor = startEditor(dir, env);
  open.push(editor);
  return editor;
}

async function initialized(editor: Editor, fs = false): Promise<acp.InitializeResponse> {
  return editor.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs } } });
}

describe('assistant acp', () => {
  it('streams thoughts and text, shows an edit with its diff, and asks the editor before writing', async () => {
    fake.script({
      turns: [
        { when: { userText: 'create notes' }, reply: { thinking: 'A new file is needed.', text: 'I will create it.', toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'hello\n' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'Created notes.txt.' } },
        { when: { userText: 'change it' }, reply: { toolCalls: [{ id: 'e1', name: 'Edit', input: { file_path: 'notes.txt', old_string: 'hello', new_string: 'goodbye' } }] } },
        { when: { toolResultFor: 'e1' }, reply: { text: 'Left it alone.' } },
      ],
    });
    const dir = gitProject({ 'README.md': '# demo\n' });
    const editor = editorIn(dir);
    const init = await initialized(editor);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ loadSession: true });
    expect(init.agentInfo?.name).toBe('assistant');

    const { sessionId } = await editor.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const commands = await pollUntil(() => updatesOf(editor, 'available_commands_update', sessionId)[0]);
    expect(commands?.availableCommands.map((c) => c.name)).toEqual(expect.arrayContaining(['cost']));

    editor.answer = choose('allow_once');
    const first = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'create notes' }] });
    expect(first.stopReason).toBe('end_turn');
    // The SDK's client may hand a notification to its handler after the response that followed it: wait for the last.
    await pollUntil(() => chunkText(editor, 'agent_message_chunk', sessionId).endsWith('Created notes.txt.'));
    expect(chunkText(editor, 'agent_thought_chunk', sessionId)).toBe('A new file is needed.');
    expect(chunkText(editor, 'agent_message_chunk', sessionId)).toBe('I will create it.Created notes.txt.');
    expect(updatesOf(editor, 'agent_message_chunk', sessionId).length).toBeGreaterThan(2); // streamed, not sent whole

    const call = updatesOf(editor, 'tool_call', sessionId).find((c) => c.toolCallId === 'w1');
    expect(call).toMatchObject({ kind: 'edit', status: 'pending', title: 'Write notes.txt', locations: [{ path: join(dir, 'notes.txt') }] });
    expect(call?.content).toEqual([{ type: 'diff', path: join(dir, 'notes.txt'), oldText: null, newText: 'hello\n' }]);
    expect(editor.permissionRequests).toHaveLength(1);
    expect(editor.permissionRequests[0]).toMatchObject({ sessionId, toolCall: { toolCallId: 'w1', kind: 'edit' } });
    expect(editor.permissionRequests[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const closing = updatesOf(editor, 'tool_call_update', sessionId).filter((u) => u.toolCallId === 'w1');
    expect(closing.map((u) => u.status)).toEqual(['in_progress', 'completed']);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('hello\n');

    // Rejected in the editor: nothing changes, the call shows as failed, the model is told.
    editor.answer = choose('reject_once');
    const second = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'change it' }] });
    expect(second.stopReason).toBe('end_turn');
    await pollUntil(() => chunkText(editor, 'agent_message_chunk', sessionId).endsWith('Left it alone.'));
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('hello\n');
    const edit = updatesOf(editor, 'tool_call', sessionId).find((c) => c.toolCallId === 'e1');
    expect(edit?.content).toEqual([{ type: 'diff', path: join(dir, 'notes.txt'), oldText: 'hello', newText: 'goodbye' }]);
    expect(updatesOf(editor, 'tool_call_update', sessionId).filter((u) => u.toolCallId === 'e1').at(-1)?.status).toBe('failed');
    expect(JSON.stringify(fake.server.requests.at(-1)!.body)).toContain('rejected this call in the editor');
    expect(await editor.close()).toBe(0);
  });

  it('"always" saves the rule, so the next such call is not asked about', async () => {
    fake.script({
      turns: [
        { when: { userText: 'first' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'a.txt', content: 'a' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'one' } },
        { when: { userText: 'second' }, reply: { toolCalls: [{ id: 'w2', name: 'Write', input: { file_path: 'a.txt', content: 'b' } }] } },
        { when: { toolResultFor: 'w2' }, reply: { text: 'two' } },
      ],
    });
    const dir = gitProject({});
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL });
    const editor = editorIn(dir, env);
    await initialized(editor);
    const { sessionId, modes } = await editor.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(modes?.currentModeId).toBe('default');
    expect(modes?.availableModes.map((m) => m.id)).toEqual(['default', 'acceptEdits', 'plan']);
    await expect(editor.agent.request('session/set_mode', { sessionId, modeId: 'bypass' })).rejects.toMatchObject({ message: expect.stringContaining('ASSISTANT_ACP_MODE_REFUSED') });
    editor.answer = choose('allow_always');
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first' }] });
    editor.answer = () => {
      throw new Error('asked again');
    };
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'second' }] });
    expect(editor.permissionRequests).toHaveLength(1);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('b');
    // Open in the editor, the session is leased: the terminal is told where it is.
    const held = await runHeadless(fake.server, dir, ['--resume', sessionId, 'anything'], { env: { ...env } as Record<string, string> });
    expect(held.stderr).toMatch(/ASSISTANT_SESSION_IN_USE.*--take-over/);
    // Closed: its kernel is gone from this connection, and the terminal may take the session without --take-over.
    await editor.agent.request('session/close', { sessionId });
    await expect(editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] })).rejects.toMatchObject({ message: expect.stringContaining('ASSISTANT_ACP_SESSION_UNKNOWN') });
    fake.script({ turns: [{ reply: { text: 'from the terminal' } }] });
    const run = await runHeadless(fake.server, dir, ['--resume', sessionId, 'anything'], { env: { ...env } as Record<string, string> });
    expect(run.code, run.stderr).toBe(0);
    await editor.close();
  });

  it('ends a turn with "cancelled" on session/cancel, and sends the plan from TodoWrite', async () => {
    fake.script({
      turns: [
        { when: { userText: 'plan it' }, reply: { toolCalls: [{ id: 't1', name: 'TodoWrite', input: { todos: [{ id: '1', content: 'Read the code', status: 'in_progress' }, { id: '2', content: 'Fix the bug', status: 'pending' }] } }] } },
        { when: { toolResultFor: 't1' }, reply: { text: 'Planned.' } },
        { when: { userText: 'long story' }, reply: { text: 'Once upon a time there was a very long story that went on and on and on and on.', chunkSize: 4, eventDelayMs: 50 } },
      ],
    });
    const dir = gitProject({});
    const editor = editorIn(dir);
    await initialized(editor);
    const { sessionId } = await editor.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan it' }] });
    await pollUntil(() => chunkText(editor, 'agent_message_chunk', sessionId) === 'Planned.');
    expect(updatesOf(editor, 'plan', sessionId).at(-1)?.entries).toEqual([
      { content: 'Read the code', status: 'in_progress', priority: 'medium' },
      { content: 'Fix the bug', status: 'pending', priority: 'medium' },
    ]);
    expect(updatesOf(editor, 'tool_call', sessionId).find((c) => c.toolCallId === 't1')?.kind).toBe('think');

    const before = updatesOf(editor, 'agent_message_chunk', sessionId).length;
    editor.onUpdate = (n) => {
      if (n.update.sessionUpdate === 'agent_message_chunk' && updatesOf(editor, 'agent_message_chunk', sessionId).length === before + 1)
        void editor.agent.notify('session/cancel', { sessionId });
    };
    const cancelled = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'long story' }] });
    expect(cancelled.stopReason).toBe('cancelled');
    expect(updatesOf(editor, 'agent_message_chunk', sessionId).length - before).toBeLessThan(10);
    await editor.close();
  });

  it('switches the permission mode from the editor: plan mode refuses a write without asking', async () => {
    fake.script({
      turns: [
        { when: { userText: 'create notes' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'x' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'Refused.' } },
      ],
    });
    const dir = gitProject({});
    const editor = editorIn(dir);
    await initialized(editor);
    const { sessionId } = await editor.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await editor.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    editor.answer = choose('allow_once');
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'create notes' }] });
    expect(editor.permissionRequests).toHaveLength(0);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
    await pollUntil(() => updatesOf(editor, 'tool_call_update', sessionId).some((u) => u.toolCallId === 'w1' && u.status === 'failed'));
    expect(updatesOf(editor, 'tool_call_update', sessionId).find((u) => u.toolCallId === 'w1' && u.status === 'failed')).toBeDefined();
    await editor.close();
  });

  it('cancels a turn waiting on a permission request: the call is denied and never runs', async () => {
    fake.script({ turns: [{ when: { userText: 'create notes' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'x' } }] } }] });
    const dir = gitProject({});
    const editor = editorIn(dir);
    await initialized(editor);
    const { sessionId } = await editor.agent.request('session/new', { cwd: dir, mcpServers: [] });
    // The person never answers; the editor's stop button sends session/cancel instead.
    editor.answer = () => {
      void editor.agent.notify('session/cancel', { sessionId });
      return new Promise<acp.RequestPermissionResponse>(() => undefined);
    };
    const result = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'create notes' }] });
    expect(result.stopReason).toBe('cancelled');
    expect(editor.permissionRequests).toHaveLength(1);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
    await editor.close();
  });

  it('loads a session later with its history, and the terminal resumes it too', async () => {
    fake.script({
      turns: [
        { when: { userText: 'remember pelican' }, reply: { text: 'Noted: pelican.', toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'bird.txt', content: 'pelican\n' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'Saved.' } },
        { when: { userText: 'which bird (editor)?' }, reply: { text: 'pelican, from the editor' } },
        { when: { userText: 'which bird (terminal)?' }, reply: { text: 'pelican, from the terminal' } },
      ],
    });
    const dir = gitProject({});
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL });
    const first = editorIn(dir, env);
    await initialized(first);
    const { sessionId } = await first.agent.request('session/new', { cwd: dir, mcpServers: [] });
    first.answer = choose('allow_once');
    await first.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'remember pelican' }] });
    // Stopped with a signal, it still shuts its sessions down cleanly.
    expect(await first.terminate()).toBe(0);

    const second = editorIn(dir, env);
    await initialized(second);
    await second.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    // The SDK's client may hand a notification to its handler after the response that followed it: wait for the last.
    expect(await pollUntil(() => chunkText(second, 'agent_message_chunk', sessionId) === 'Noted: pelican.Saved.')).toBe(true);
    expect(chunkText(second, 'user_message_chunk', sessionId)).toBe('remember pelican');
    expect(updatesOf(second, 'tool_call', sessionId).map((c) => [c.toolCallId, c.kind])).toEqual([['w1', 'edit']]);
    expect(updatesOf(second, 'tool_call_update', sessionId).map((u) => [u.toolCallId, u.status])).toEqual([['w1', 'completed']]);
    const answer = await second.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'which bird (editor)?' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(JSON.stringify(fake.server.requests.at(-1)!.body)).toContain('Noted: pelican.');
    expect(await second.close()).toBe(0);

    const run = await runHeadless(fake.server, dir, ['--resume', sessionId, '--output-format', 'stream-json', 'which bird (terminal)?'], { env: { ...env } as Record<string, string> });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'result', session_id: sessionId, text: 'pelican, from the terminal' });
    expect(JSON.stringify(fake.server.requests.at(-1)!.body)).toContain('pelican, from the editor');
  });

  it("reads the editor's unsaved buffer and hands writes to the editor when it offers fs", async () => {
    fake.script({
      turns: [
        { when: { userText: 'read it' }, reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'notes.txt' } }] } },
        { when: { toolResultFor: 'r1' }, reply: { text: 'Read.' } },
        { when: { userText: 'write it' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'out.txt', content: 'written\n' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'Written.' } },
      ],
    });
    const dir = gitProject({ 'notes.txt': 'saved line\n' });
    const editor = editorIn(dir);
    await initialized(editor, true);
    editor.buffers.set(join(dir, 'notes.txt'), 'saved line\nunsaved line typed in the editor\n');
    const { sessionId } = await editor.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read it' }] });
    const sent = JSON.stringify(fake.server.requests.at(-1)!.body);
    expect(sent).toContain('saved line');
    expect(sent).toContain('unsaved line typed in the editor');
    expect(editor.fsRequests).toEqual([{ method: 'read', path: join(dir, 'notes.txt') }]);

    editor.answer = choose('allow_once');
    await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('written\n');
    expect(editor.fsRequests.at(-1)).toEqual({ method: 'write', path: join(dir, 'out.txt'), content: 'written\n' });
    await editor.close();
  });

  it('refuses a session outside its project and an unknown session, with coded errors', async () => {
    const dir = gitProject({});
    const editor = editorIn(dir);
    await initialized(editor);
    await expect(editor.agent.request('session/new', { cwd: tmpdir(), mcpServers: [] })).rejects.toMatchObject({ message: expect.stringContaining('ASSISTANT_ACP_CWD_OUTSIDE') });
    await expect(editor.agent.request('session/load', { sessionId: '00000000-0000-0000-0000-000000000000', cwd: dir, mcpServers: [] })).rejects.toMatchObject({
      message: expect.stringContaining('ASSISTANT_ACP_SESSION_UNKNOWN'),
    });
    await expect(editor.agent.request('session/prompt', { sessionId: 'nope', prompt: [{ type: 'text', text: 'hi' }] })).rejects.toMatchObject({
      message: expect.stringContaining('ASSISTANT_ACP_SESSION_UNKNOWN'),
    });
    expect(existsSync(join(dir, '.assistant'))).toBe(false);
    expect(await editor.close()).toBe(0);
  });
});
