// Each shell hook event through the real kernel: the built-in plugins, the agent loop, the tool
// runtime, and the fake LLM server answering over HTTP.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { emptySnapshot } from '../../dist/core/kits/store/index.js';
import { command, hookedAgent, logTo, sharedFakeLlm } from './support.js';

const llm = sharedFakeLlm();
const script = (fixture: object) => llm.script(fixture);

/** Everything the model was sent in request `i`. */
const sent = (i: number) => JSON.stringify(llm.server.requests[i]!.body);

/** One tool call, then a final answer once its result is in. */
function oneCall(name: string, input: object, id = 'c1') {
  return {
    turns: [
      { name: 'call', reply: { toolCalls: [{ id, name, input }] } },
      { name: 'answer', when: { toolResultFor: id }, reply: { text: 'done' } },
    ],
    fallback: { text: 'UNEXPECTED' },
  };
}

describe('SessionStart', () => {
  it('runs when a session opens, with the event on stdin; its output becomes context for the model', async () => {
    script({ turns: [{ reply: { text: 'hi' } }] });
    const agent = await hookedAgent(llm.server, { SessionStart: [command(`${logTo('.hooks/log.jsonl')}; echo "Branch policy: never push to main"`)] });
    const [event] = agent.logged('.hooks/log.jsonl');
    expect(event).toEqual({
      hook_event_name: 'SessionStart',
      session_id: agent.session.info.id,
      cwd: agent.dir,
      project_root: agent.dir,
      permission_mode: 'bypass',
      source: 'startup',
    });
    await agent.runner.run('hello');
    expect(JSON.stringify(llm.server.requests[0]!.body.system)).toContain('<hook event=\\"SessionStart\\" command=');
    expect(JSON.stringify(llm.server.requests[0]!.body.system)).toContain('Branch policy: never push to main');
  });

  it('matches its matcher against how the session opened (startup, resume, fork, clear)', async () => {
    const agent = await hookedAgent(llm.server, { SessionStart: [command(logTo('.hooks/resumed.jsonl'), { matcher: 'resume|fork' })] });
    expect(agent.logged('.hooks/resumed.jsonl')).toEqual([]);
    const snapshot = emptySnapshot(agent.session.info);
    await openSession(agent.kernel, { projectRoot: agent.dir, mode: 'default', resume: snapshot });
    await openSession(agent.kernel, { projectRoot: agent.dir, mode: 'default', cleared: true });
    await openSession(agent.kernel, { projectRoot: agent.dir, mode: 'default', fork: snapshot });
    expect(agent.logged('.hooks/resumed.jsonl').map((e) => e.source)).toEqual(['resume', 'fork']);
  });

  it('reports a failing command at the first prompt (nothing shows output before), and the session still opens', async () => {
    script({ turns: [{ reply: { text: 'hi' } }] });
    const agent = await hookedAgent(llm.server, { SessionStart: [command('echo boom >&2; exit 1')] });
    expect(agent.notices()).toEqual([]);
    const result = await agent.runner.run('hello');
    expect(result.reason).toBe('completed');
    expect(agent.notices()).toEqual(['SessionStart hook `echo boom >&2; exit 1` exited with status 1: boom']);
  });
});

describe('UserPromptSubmit', () => {
  it('reads the prompt on stdin and adds its additionalContext to the prompt', async () => {
    script({ turns: [{ reply: { text: 'ok' } }] });
    const agent = await hookedAgent(llm.server, {
      UserPromptSubmit: [command(`${logTo('.hooks/log.jsonl')}; echo '{"additionalContext": "Ticket ABC-1 is about the login page."}'`)],
    });
    await agent.runner.run('fix the ticket');
    expect(agent.logged('.hooks/log.jsonl')).toEqual([expect.objectContaining({ hook_event_name: 'UserPromptSubmit', prompt: 'fix the ticket', session_id: agent.session.info.id })]);
    expect(sent(0)).toContain('Ticket ABC-1 is about the login page.');
    expect(agent.session.messages[0]!.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n')).toMatch(/^fix the ticket\n<hook event="UserPromptSubmit"/);
  });

  it('takes plain stdout as context', async () => {
    script({ turns: [{ reply: { text: 'ok' } }] });
    const agent = await hookedAgent(llm.server, { UserPromptSubmit: [command('echo "Current sprint: 42"')] });
    await agent.runner.run('what sprint is it?');
    expect(sent(0)).toContain('Current sprint: 42');
  });

  it('blocks the prompt with exit 2: the model is never asked and the prompt is not kept', async () => {
    script({ turns: [{ reply: { text: 'should not be asked' } }] });
    const agent = await hookedAgent(llm.server, { UserPromptSubmit: [command(`grep -q password && { echo "prompts must not contain passwords" >&2; exit 2; } || exit 0`)] });
    const result = await agent.runner.run('my password is hunter2');
    expect(result.reason).toBe('error');
    expect(result.error?.code).toBe('ASSISTANT_HOOK_BLOCKED');
    expect(result.message).toContain('the prompt was blocked by the UserPromptSubmit hook `grep -q password');
    expect(result.message).toContain('prompts must not contain passwords');
    expect(llm.server.requests).toHaveLength(0);
    expect(agent.session.messages).toEqual([]);
    const ok = await agent.runner.run('hello');
    expect(ok.reason).toBe('completed');
  });
});

describe('PreToolUse', () => {
  it('blocks with exit 2: the tool never runs, permission is never asked, and the model reads the reason', async () => {
    script(oneCall('Bash', { command: 'touch ran.txt' }));
    const agent = await hookedAgent(llm.server, { PreToolUse: [command(`${logTo('.hooks/log.jsonl')}; echo "no touching in this repo" >&2; exit 2`, { matcher: 'Bash' })] });
    const result = await agent.runner.run('touch it');
    expect(result).toMatchObject({ reason: 'completed', text: 'done' });
    expect(existsSync(join(agent.dir, 'ran.txt'))).toBe(false);
    expect(agent.events.filter((e) => e.type === 'permission')).toEqual([]);
    expect(sent(1)).toContain('Bash was refused before it ran: blocked by the PreToolUse hook');
    expect(sent(1)).toContain('no touching in this repo');
    expect(agent.logged('.hooks/log.jsonl')).toEqual([
      {
        hook_event_name: 'PreToolUse',
        session_id: agent.session.info.id,
        cwd: agent.dir,
        project_root: agent.dir,
        permission_mode: 'bypass',
        tool_name: 'Bash',
        tool_input: { command: 'touch ran.txt' },
        tool_use_id: 'c1',
      },
    ]);
  });

  it('blocks with a JSON answer, and with Claude Code\'s permissionDecision "deny"', async () => {
    for (const answer of ['{"decision": "block", "reason": "writes are frozen"}', '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "writes are frozen"}}']) {
      script(oneCall('Write', { file_path: 'new.txt', content: 'x\n' }));
      const agent = await hookedAgent(llm.server, { PreToolUse: [command(`echo '${answer}'`)] });
      await agent.runner.run('write it');
      expect(existsSync(join(agent.dir, 'new.txt'))).toBe(false);
      expect(sent(1)).toContain('writes are frozen');
    }
  });

  it('rewrites the input with updatedInput; the next command sees the rewrite, and the tool runs with it', async () => {
    script(oneCall('Write', { file_path: 'notes.txt', content: 'draft\n' }));
    // printf, not echo: dash's echo (sh when $SHELL is unset, as in CI) turns a backslash-n into a newline.
    const rewrite = `printf '%s\\n' '{"updatedInput": {"file_path": "notes.txt", "content": "rewritten by the hook\\n"}}'`;
    const agent = await hookedAgent(llm.server, { PreToolUse: [command(rewrite, { matcher: 'Write' }), command(logTo('.hooks/log.jsonl'), { matcher: 'Write' })] });
    await agent.runner.run('write notes');
    expect(readFileSync(join(agent.dir, 'notes.txt'), 'utf8')).toBe('rewritten by the hook\n');
    expect(agent.logged('.hooks/log.jsonl')[0]!.tool_input).toEqual({ file_path: 'notes.txt', content: 'rewritten by the hook\n' });
  });

  it('checks a rewritten input against the tool schema again', async () => {
    script(oneCall('Write', { file_path: 'notes.txt', content: 'draft\n' }));
    const agent = await hookedAgent(llm.server, { PreToolUse: [command(`echo '{"updatedInput": {"path": "notes.txt"}}'`)] });
    await agent.runner.run('write notes');
    expect(existsSync(join(agent.dir, 'notes.txt'))).toBe(false);
    const result = agent.events.find((e) => e.type === 'tool_end');
    expect(result?.type === 'tool_end' && result.result.metadata?.code).toBe('ASSISTANT_TOOL_INPUT_INVALID');
  });

  it('goes on through the permission engine after the hooks, which cannot grant anything', async () => {
    script(oneCall('Write', { file_path: 'notes.txt', content: 'draft\n' }));
    const agent = await hookedAgent(llm.server, { PreToolUse: [command(`echo '{"hookSpecificOutput": {"permissionDecision": "allow"}}'`)] }, { mode: 'plan' });
    await agent.runner.run('write notes');
    expect(existsSync(join(agent.dir, 'notes.txt'))).toBe(false);
    expect(agent.events.find((e) => e.type === 'permission')).toMatchObject({ decision: { behavior: 'deny' } });
    expect(agent.notices().join('\n')).toContain('"permissionDecision": "allow" was ignored: a hook can deny a call, never grant permission');
  });
});

describe('PostToolUse', () => {
  it('runs after a successful call with its result on stdin; additionalContext and a block reason reach the model', async () => {
    script(oneCall('Write', { file_path: 'a.txt', content: 'one\n' }));
    const agent = await hookedAgent(llm.server, {
      PostToolUse: [
        command(`${logTo('.hooks/log.jsonl')}; echo '{"additionalContext": "lint: clean"}'`, { matcher: 'Write|Edit' }),
        command('echo "a.txt must end with two newlines" >&2; exit 2', { matcher: 'Write' }),
      ],
    });
    await agent.runner.run('write a');
    const [event] = agent.logged('.hooks/log.jsonl');
    expect(event).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: 'a.txt', content: 'one\n' }, tool_use_id: 'c1' });
    expect(event!.tool_response).toMatchObject({ is_error: false });
    expect(event!.tool_response.text).toContain('a.txt');
    const body = sent(1);
    expect(body).toContain('lint: clean');
    expect(body).toContain('decision=\\"block\\">\\na.txt must end with two newlines');
    expect(readFileSync(join(agent.dir, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('does not run after a failed call', async () => {
    script(oneCall('Read', { file_path: 'missing.txt' }));
    const agent = await hookedAgent(llm.server, { PostToolUse: [command(logTo('.hooks/log.jsonl'))] });
    await agent.runner.run('read it');
    expect(agent.logged('.hooks/log.jsonl')).toEqual([]);
  });
});

describe('Stop', () => {
  it('sends the model back to work with exit 2, says so with stop_hook_active, and then lets it stop', async () => {
    script({
      turns: [
        { name: 'first', when: { userText: 'do it' }, reply: { text: 'All done.' } },
        { name: 'second', when: { contains: 'run the tests before you stop' }, reply: { text: 'Tests pass. Done now.' } },
      ],
      fallback: { text: 'UNEXPECTED' },
    });
    const stopHook = `${logTo('.hooks/log.jsonl')}; tail -n 1 .hooks/log.jsonl | grep -q '"stop_hook_active":true' || { echo "run the tests before you stop" >&2; exit 2; }`;
    const agent = await hookedAgent(llm.server, { Stop: [command(stopHook)] });
    const result = await agent.runner.run('do it');
    expect(result).toMatchObject({ reason: 'completed', text: 'Tests pass. Done now.', turns: 2 });
    expect(llm.server.requests.map((r) => r.turn)).toEqual(['first', 'second']);
    expect(agent.logged('.hooks/log.jsonl').map((e) => [e.hook_event_name, e.stop_hook_active, e.reply])).toEqual([
      ['Stop', false, 'All done.'],
      ['Stop', true, 'Tests pass. Done now.'],
    ]);
  });

  it('lets the model stop when the command allows it', async () => {
    script({ turns: [{ reply: { text: 'done' } }], fallback: { text: 'UNEXPECTED' } });
    const agent = await hookedAgent(llm.server, { Stop: [command('echo "{}"')] });
    const result = await agent.runner.run('go');
    expect(result).toMatchObject({ reason: 'completed', turns: 1 });
  });
});
