// How a command's exit status and output are read, what happens when it fails or hangs, and which
// tools a matcher picks: tool calls go through the real kernel's single pipeline (no model needed).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../../dist/core/index.js';
import { pollUntil } from '../support/wait.js';
import { alive, command, hookedAgent, logTo } from './support.js';

let ids = 0;
const call = (name: string, input: Record<string, unknown>): ToolCallPart => ({ type: 'tool_call', id: `t${++ids}`, name, input });
const batch = (agent: { session: { info: { id: string } } }) => ({ mode: 'bypass' as const, signal: new AbortController().signal, turn: 1, sessionId: agent.session.info.id });
const textOf = (part: { content: Array<{ type: string; text?: string }> }) => part.content.map((p) => p.text ?? '').join('\n');

describe('answers', () => {
  it('reports a command that exits with another status, naming the hook and the command, and the call still runs', async () => {
    const agent = await hookedAgent(undefined, { PreToolUse: [command('echo "lint server down" >&2; exit 1')] });
    const [result] = await agent.kernel.runToolCalls([call('Write', { file_path: 'x.txt', content: 'x\n' })], batch(agent));
    expect(result!.isError).toBeFalsy();
    expect(readFileSync(join(agent.dir, 'x.txt'), 'utf8')).toBe('x\n');
    expect(agent.notices()).toEqual(['PreToolUse hook `echo "lint server down" >&2; exit 1` exited with status 1: lint server down']);
    expect(agent.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'ASSISTANT_HOOK_COMMAND_FAILED', sessionId: agent.session.info.id });
  });

  it('reports a script that is not executable, and one that does not exist', async () => {
    const agent = await hookedAgent(
      undefined,
      { PreToolUse: [command('./.hooks/guard.sh'), command('./.hooks/missing.sh')] },
      { scripts: { '.hooks/guard.sh': '#!/bin/sh\nexit 2\n' }, notExecutable: ['.hooks/guard.sh'] },
    );
    const [result] = await agent.kernel.runToolCalls([call('LS', { path: '.' })], batch(agent));
    expect(result!.isError).toBeFalsy();
    const [notExecutable, missing] = agent.notices();
    expect(notExecutable).toMatch(/^PreToolUse hook `\.\/\.hooks\/guard\.sh` is not executable \(exit status 126\): .*[Pp]ermission denied.*; check the file's execute permission$/);
    expect(missing).toMatch(/^PreToolUse hook `\.\/\.hooks\/missing\.sh` was not found \(exit status 127\)/);
  });

  it('reports stdout that looks like JSON but is not, and fields that do not apply to the event', async () => {
    const agent = await hookedAgent(undefined, {
      PreToolUse: [command(`echo '{"decision": "block", '`)],
      PostToolUse: [command(`echo '{"updatedInput": {"path": "."}, "systemMessage": "formatted 0 files"}'`)],
    });
    const [result] = await agent.kernel.runToolCalls([call('LS', { path: '.' })], batch(agent));
    expect(result!.isError).toBeFalsy();
    expect(agent.notices()).toEqual([
      expect.stringMatching(/^PreToolUse hook `echo '\{"decision": "block", '` answered on stdout with something that is not valid JSON \(.+\): \{"decision": "block",$/),
      'PostToolUse hook `echo \'{"updatedInput": {"path": "."}, "systemMessage": "formatted 0 files"}\'` "updatedInput" does not apply to PostToolUse hooks and was ignored',
      'PostToolUse hook `echo \'{"updatedInput": {"path": "."}, "systemMessage": "formatted 0 files"}\'`: formatted 0 files',
    ]);
    // A systemMessage is a message, not a failure.
    expect(agent.events.filter((e) => e.type === 'notice').map((e) => e.type === 'notice' && e.code)).toEqual(['ASSISTANT_HOOK_COMMAND_FAILED', 'ASSISTANT_HOOK_COMMAND_FAILED', undefined]);
  });

  it('stops at the first block: later commands for the event do not run', async () => {
    const agent = await hookedAgent(undefined, { PreToolUse: [command('echo no >&2; exit 2'), command(logTo('.hooks/log.jsonl'))] });
    const [result] = await agent.kernel.runToolCalls([call('LS', { path: '.' })], batch(agent));
    expect(result!.isError).toBe(true);
    expect(result!.metadata?.code).toBe('ASSISTANT_HOOK_BLOCKED');
    expect(agent.logged('.hooks/log.jsonl')).toEqual([]);
  });

  it('kills a command at its timeout with everything it started, even what ignores SIGTERM, and reports it', async () => {
    const hang = `trap '' TERM; sleep 300 & echo $! > .hooks/child.pid; wait`;
    // 3 s: the hook must have started its child before the timeout, even on a loaded machine.
    const agent = await hookedAgent(undefined, { PreToolUse: [command(hang, { timeout: 3 })] });
    const [result] = await agent.kernel.runToolCalls([call('Write', { file_path: 'after.txt', content: 'ran\n' })], batch(agent));
    const child = Number(readFileSync(join(agent.dir, '.hooks/child.pid'), 'utf8'));
    // SIGKILL was sent before the run returned; the kernel delivers it when the child is next scheduled.
    expect(await pollUntil(() => !alive(child))).toBe(true);
    expect(agent.notices()).toEqual([
      `PreToolUse hook \`${hang}\` did not finish within 3 s and was killed, with everything it started (raise its "timeout" if it needs longer)`,
    ]);
    // A failed hook does not block: only exit 2 or a block answer does.
    expect(result!.isError).toBeFalsy();
    expect(existsSync(join(agent.dir, 'after.txt'))).toBe(true);
  });

  it('kills a running command when the run is stopped', async () => {
    const agent = await hookedAgent(undefined, { PreToolUse: [command('sleep 300 & echo $! > .hooks/child.pid; wait')] });
    const controller = new AbortController();
    const running = agent.kernel.runToolCalls([call('LS', { path: '.' })], { ...batch(agent), signal: controller.signal });
    // The command has started once it wrote its child's pid.
    const pidFile = join(agent.dir, '.hooks/child.pid');
    await new Promise<void>((resolve) => {
      const check = () => (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() ? resolve() : setTimeout(check, 10));
      check();
    });
    controller.abort();
    const [result] = await running;
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(await pollUntil(() => !alive(child))).toBe(true);
    expect(result!.metadata?.code).toBe('ASSISTANT_TOOL_ABORTED');
    expect(agent.notices()).toEqual([]);
  });
});

describe('matchers', () => {
  it('match the whole tool name as a regular expression; empty, "*" or none match every tool', async () => {
    const agent = await hookedAgent(undefined, {
      PreToolUse: [
        command(logTo('.hooks/edit-write.jsonl'), { matcher: 'Edit|Write' }),
        command(logTo('.hooks/edit.jsonl'), { matcher: 'Edit' }),
        command(logTo('.hooks/star.jsonl'), { matcher: '*' }),
        command(logTo('.hooks/none.jsonl')),
        command(logTo('.hooks/regex.jsonl'), { matcher: 'L.|Gl.*' }),
      ],
    }, { files: { 'a.txt': 'one\n' } });
    const calls = [
      call('Read', { file_path: 'a.txt' }),
      call('Write', { file_path: 'b.txt', content: 'two\n' }),
      call('MultiEdit', { file_path: 'a.txt', edits: [{ old_string: 'one', new_string: 'uno' }] }),
      call('LS', { path: '.' }),
      call('Glob', { pattern: '*.txt' }),
    ];
    await agent.kernel.runToolCalls(calls, batch(agent));
    const tools = (file: string) => agent.logged(`.hooks/${file}`).map((e) => e.tool_name);
    expect(tools('edit-write.jsonl')).toEqual(['Write']);
    expect(tools('edit.jsonl')).toEqual([]);
    expect(tools('star.jsonl')).toEqual(['Read', 'Write', 'MultiEdit', 'LS', 'Glob']);
    expect(tools('none.jsonl')).toEqual(['Read', 'Write', 'MultiEdit', 'LS', 'Glob']);
    expect(tools('regex.jsonl')).toEqual(['LS', 'Glob']);
  });
});
