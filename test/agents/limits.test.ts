// A sub-agent's limits, through the fake LLM server: its turn limit (partial results come back),
// its tool subset and read-only mode (calls outside them are refused), its nesting depth, unknown
// types, and the caller's interrupt (which stops it and its model request).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssistantError, emptyUsage, type Message, type OriginEvent } from '../../dist/core/index.js';
import { type AgentLoopResult } from '../../dist/core/kits/agent/index.js';
import { agentReport } from '../../dist/plugins/agents/report.js';
import { agentSession, useFakeLlm, firstRequestOf, resultFor, textOf, toolsOffered } from './support.js';

const llm = useFakeLlm();

const task = (id: string, prompt: string, type?: string) => ({
  id,
  name: 'Task',
  input: { description: prompt.split(' ').slice(0, 3).join(' '), prompt, ...(type ? { subagent_type: type } : {}) },
});

const toolEnds = (events: OriginEvent[]) => events.filter((e): e is Extract<OriginEvent, { type: 'tool_end' }> => e.type === 'tool_end');

describe('a sub-agent at its turn limit', () => {
  it('stops and reports its partial results, with a clear note', async () => {
    llm.script({
      turns: [
        { name: 'main: delegate', when: { userText: 'survey the project' }, reply: { toolCalls: [task('scout_1', 'Survey the repository layout', 'scout')] } },
        { name: 'scout 1', when: { userText: 'Survey the repository layout' }, reply: { text: 'The README describes an app.', toolCalls: [{ id: 's1', name: 'Read', input: { file_path: 'README.md' } }] } },
        { name: 'scout 2', when: { toolResultFor: 's1' }, reply: { text: 'notes.txt holds the release plan.', toolCalls: [{ id: 's2', name: 'Read', input: { file_path: 'notes.txt' } }] } },
        { name: 'scout 3', when: { toolResultFor: 's2' }, reply: { text: 'A third turn must not happen.' } },
        { name: 'main: done', when: { toolResultFor: 'scout_1' }, reply: { text: 'The scout ran out of turns.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const s = await agentSession(llm.fake, { 'README.md': '# app\n', 'notes.txt': 'release on friday\n' }, {
      config: { agents: { scout: { description: 'Surveys a repository.', prompt: 'You survey repositories.', maxTurns: 2 } } },
    });
    try {
      const result = await s.runner.run('survey the project');
      expect(result.text).toBe('The scout ran out of turns.');
      expect(llm.fake.requests.map((r) => r.turn)).toEqual(['main: delegate', 'scout 1', 'scout 2', 'main: done']);
      const report = resultFor(s.runner, 'scout_1');
      expect(report.isError).toBeUndefined();
      expect(textOf(report)).toBe(
        'The README describes an app.\n\nnotes.txt holds the release plan.\n\n' +
          '[Sub-agent scout-1 (scout) stopped before finishing: it reached its turn limit (2 turns). ' +
          'Above is what it wrote in 2 turns: partial results, not a finished report. It made 2 tool calls: Read README.md; Read notes.txt.]',
      );
      expect(report.metadata).toMatchObject({ agentId: 'scout-1', reason: 'max_turns', turns: 2, toolCalls: 2 });
      const done = s.events.find((e) => e.type === 'done' && e.agentId === 'scout-1');
      expect(done).toMatchObject({ reason: 'max_turns', parentCallId: 'scout_1' });
    } finally {
      await s.kernel.shutdown();
    }
  });
});

describe("the caller's budget", () => {
  const script = () =>
    llm.script({
      turns: [
        { name: 'main: delegate', when: { userText: 'summarise the notes' }, reply: { toolCalls: [task('sum_1', `Summarise these notes: ${'a long note. '.repeat(2000)}`)] } },
        { name: 'general: report', when: { userText: 'Summarise these notes' }, reply: { text: 'They are long.' } },
        { name: 'main: done', when: { toolResultFor: 'sum_1' }, reply: { text: 'Summarised.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
  const tokensOf = (usage: any) => usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;

  it("counts what its sub-agents spent against limits.maxTokens, and the Task result says what that was", async () => {
    script();
    const free = await agentSession(llm.fake, { 'README.md': '# app\n' });
    let own = 0;
    let delegated = 0;
    free.kernel.hooks.event.tap('test-budget', (e) => {
      if (e.type === 'turn_end' && !e.agentId && e.turn === 1) own = tokensOf(e.usage);
      if (e.type === 'done' && e.agentId === 'general-1') delegated = tokensOf(e.usage);
    });
    try {
      const result = await free.runner.run('summarise the notes');
      expect(result.reason).toBe('completed');
      expect(resultFor(free.runner, 'sum_1').metadata?.spent).toEqual({ tokens: delegated, costUsd: expect.any(Number) });
      expect(result.spent.tokens).toBe(tokensOf(result.usage) + delegated);
    } finally {
      await free.kernel.shutdown();
    }
    // A limit above the caller's own first request, but below it plus what the sub-agent spent,
    // stops the caller before its next request.
    expect(delegated).toBeGreaterThan(0);
    script();
    const limited = await agentSession(llm.fake, { 'README.md': '# app\n' }, { config: { limits: { maxTokens: own + Math.floor(delegated / 2) } } });
    try {
      const result = await limited.runner.run('summarise the notes');
      expect(result.reason).toBe('budget');
      expect(result.message).toContain(`of them by sub-agents`);
      expect(llm.fake.requests.map((r) => r.turn)).toEqual(['main: delegate', 'general: report']);
    } finally {
      await limited.kernel.shutdown();
    }
  });
});

describe("a sub-agent's tool subset and read-only mode", () => {
  it('refuses tools outside its subset and commands that could write, even when the caller may do anything', async () => {
    llm.script({
      turns: [
        { name: 'main: delegate', when: { userText: 'look around' }, reply: { toolCalls: [task('look_1', 'Look at the README and tidy it')] } },
        {
          name: 'general: tries',
          when: { userText: 'Look at the README and tidy it' },
          reply: {
            toolCalls: [
              { id: 'g_edit', name: 'Edit', input: { file_path: 'README.md', old_string: '# app', new_string: '# App' } },
              { id: 'g_touch', name: 'Bash', input: { command: 'touch created.txt' } },
              { id: 'g_cat', name: 'Bash', input: { command: 'cat README.md' } },
            ],
          },
        },
        { name: 'general: report', when: { toolResultFor: 'g_cat' }, reply: { text: 'I could read but not change anything.' } },
        { name: 'main: done', when: { toolResultFor: 'look_1' }, reply: { text: 'done' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const s = await agentSession(llm.fake, { 'README.md': '# app\n' }, { mode: 'bypass' });
    try {
      await s.runner.run('look around');
      const ends = new Map(toolEnds(s.events).filter((e) => e.agentId).map((e) => [e.call.id, e]));
      expect(ends.get('g_edit')!.result).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_TOOL_UNKNOWN' } });
      expect(textOf(ends.get('g_edit')!.result)).toMatch(/^The tool "Edit" is not available here\. .*Available tools: Bash, Glob, Grep, LS, Read\.$/);
      expect(ends.get('g_touch')!.result).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_TOOL_DENIED' } });
      expect(textOf(ends.get('g_touch')!.result)).toContain('plan mode is read-only');
      expect(ends.get('g_cat')!.result.isError).toBeUndefined();
      expect(textOf(ends.get('g_cat')!.result)).toContain('# app');
      expect(readFileSync(join(s.dir, 'README.md'), 'utf8')).toBe('# app\n');
      expect(existsSync(join(s.dir, 'created.txt'))).toBe(false);
      expect(textOf(resultFor(s.runner, 'look_1'))).toBe('I could read but not change anything.');
    } finally {
      await s.kernel.shutdown();
    }
  });

  it('offers MCP tools only where the type allows them by name or pattern, and never Task by a pattern', async () => {
    const mcpTools = {
      name: 'test-fake-mcp',
      apply(kernel: any) {
        for (const name of ['mcp__github__search_issues', 'mcp__jira__get_issue'])
          kernel.tools.register({
            name,
            description: `fake ${name}`,
            inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
            access: 'read',
            risk: { category: 'read' },
            handler: async (input: { q?: string }) => ({ content: [{ type: 'text', text: `${name} found 2 issues for ${input.q}` }] }),
          });
      },
    };
    llm.script({
      turns: [
        { name: 'main: delegate', when: { userText: 'triage' }, reply: { toolCalls: [task('t_gh', 'Find open issues about login', 'triager'), task('t_gen', 'Summarise the README')] } },
        { name: 'triager', when: { userText: 'Find open issues about login' }, reply: { toolCalls: [{ id: 'gh1', name: 'mcp__github__search_issues', input: { q: 'login' } }, { id: 'jira1', name: 'mcp__jira__get_issue', input: { q: 'X-1' } }] } },
        { name: 'triager: report', when: { toolResultFor: 'gh1' }, reply: { text: 'Two login issues.' } },
        { name: 'general', when: { userText: 'Summarise the README' }, reply: { text: 'It is short.' } },
        { name: 'main: done', when: { toolResultFor: 't_gh' }, reply: { text: 'triaged' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const s = await agentSession(llm.fake, { 'README.md': '# app\n' }, {
      mode: 'bypass',
      plugins: [mcpTools],
      config: { agents: { triager: { description: 'Triages issues.', prompt: 'You triage issues.', tools: ['Read', 'mcp__github__*', 'Ta*'] } } },
    });
    try {
      await s.runner.run('triage');
      expect(toolsOffered(firstRequestOf(llm.fake, 'Find open issues about login'))).toEqual(['Read', 'mcp__github__search_issues']);
      expect(toolsOffered(firstRequestOf(llm.fake, 'Summarise the README'))).toEqual(['Bash', 'Glob', 'Grep', 'LS', 'Read']);
      const ends = new Map(toolEnds(s.events).map((e) => [e.call.id, e]));
      expect(textOf(ends.get('gh1')!.result)).toBe('mcp__github__search_issues found 2 issues for login');
      expect(ends.get('jira1')!.result.metadata).toMatchObject({ code: 'ASSISTANT_TOOL_UNKNOWN' });
    } finally {
      await s.kernel.shutdown();
    }
  });
});

describe('nesting and unknown types', () => {
  it('lets a type that lists Task start sub-agents, up to the depth limit, and refuses unknown types', async () => {
    const level = (n: number) => ({
      name: `level ${n}`,
      when: { userText: `Delegate at depth ${n}` },
      reply: { toolCalls: [task(`deeper_${n}`, `Delegate at depth ${n + 1}`, 'nester')] },
    });
    llm.script({
      turns: [
        { name: 'main: delegate', when: { userText: 'go deep' }, reply: { toolCalls: [task('n1', 'Delegate at depth 1', 'nester'), task('bad', 'anything', 'no-such-type')] } },
        level(1),
        level(2),
        level(3),
        { name: 'level 3: refused', when: { toolResultFor: 'deeper_3' }, reply: { text: 'Level 3 could not go deeper.' } },
        { name: 'level 2: done', when: { toolResultFor: 'deeper_2' }, reply: { text: 'Level 2 heard: level 3 could not go deeper.' } },
        { name: 'level 1: done', when: { toolResultFor: 'deeper_1' }, reply: { text: 'Level 1 done.' } },
        { name: 'main: done', when: { toolResultFor: 'n1' }, reply: { text: 'deep enough' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const s = await agentSession(llm.fake, {}, { config: { agents: { nester: { description: 'Delegates.', prompt: 'You delegate.', tools: ['Task'] } } } });
    try {
      await s.runner.run('go deep');
      expect(llm.fake.requests.map((r) => r.turn)).not.toContain('fallback');
      expect(resultFor(s.runner, 'bad')).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_AGENT_UNKNOWN' } });
      expect(textOf(resultFor(s.runner, 'bad'))).toBe('There is no agent type "no-such-type". Available types: general, nester. Call Task again with one of them as subagent_type.');
      const ends = new Map(toolEnds(s.events).map((e) => [e.call.id, e]));
      expect(ends.get('deeper_3')!.result).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_AGENT_DEPTH' } });
      expect(textOf(ends.get('deeper_2')!.result)).toBe('Level 3 could not go deeper.');
      expect(textOf(resultFor(s.runner, 'n1'))).toBe('Level 1 done.');
      // The chain of parents: each level's calls name the Task call of the level above.
      const starts = s.events.filter((e) => e.type === 'tool_start' && e.call.name === 'Task');
      expect(starts.map((e) => [(e as { call: { id: string } }).call.id, e.agentId ?? 'main', e.parentCallId ?? '-'])).toEqual([
        ['n1', 'main', '-'],
        ['bad', 'main', '-'],
        ['deeper_1', 'nester-1', 'n1'],
        ['deeper_2', 'nester-2', 'deeper_1'],
        ['deeper_3', 'nester-3', 'deeper_2'],
      ]);
      // Task is offered only to the type that lists it by name.
      expect(toolsOffered(firstRequestOf(llm.fake, 'Delegate at depth 1'))).toEqual(['Task']);
    } finally {
      await s.kernel.shutdown();
    }
  });
});

describe('interrupting the caller', () => {
  it("aborts its running sub-agents and their model requests, and keeps the session consistent", async () => {
    const stalled = (id: string) => ({ name: `stalled ${id}`, when: { userText: `Wait for ${id}` }, faults: [{ type: 'stall_after_headers', afterEvents: 1 }], reply: { text: 'never delivered' } });
    llm.script({
      turns: [
        { name: 'main: delegate', when: { userText: 'start two slow agents' }, reply: { toolCalls: [task('slow_a', 'Wait for A'), task('slow_b', 'Wait for B')] } },
        stalled('A'),
        stalled('B'),
        { name: 'main: next', when: { userText: 'are you there' }, reply: { text: 'Yes.' } },
      ],
    });
    const s = await agentSession(llm.fake, {});
    try {
      // Interrupt once both sub-agents have their model streams open.
      const streaming = new Set<string>();
      s.kernel.hooks.event.tap('test-interrupt', (e) => {
        if (!e.agentId || e.type !== 'model' || e.event.type !== 'message_start') return;
        streaming.add(e.agentId);
        if (streaming.size === 2) s.runner.abort();
      });
      const result = await s.runner.run('start two slow agents');
      expect(result.reason).toBe('aborted');
      for (const id of ['slow_a', 'slow_b']) {
        const r = resultFor(s.runner, id);
        expect(r).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_TOOL_ABORTED', reason: 'aborted' } });
        expect(textOf(r)).toContain('stopped before finishing: it was interrupted');
      }
      const children = s.events.filter((e) => e.type === 'done' && e.agentId);
      expect(children.map((e) => (e as { reason: string }).reason)).toEqual(['aborted', 'aborted']);
      const held = llm.fake.requests.filter((r) => r.turn?.startsWith('stalled'));
      expect(held).toHaveLength(2);
      // The server learns of the closed connections a moment after the client let go.
      await expect.poll(() => held.every((r) => r.clientClosedEarly)).toBe(true);
      expect(held.every((r) => !r.completed)).toBe(true);
      expect((await s.runner.run('are you there')).text).toBe('Yes.');
    } finally {
      await s.kernel.shutdown();
    }
  });
});

describe('the report of a sub-agent that did not finish', () => {
  const wrote: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'Check the build.' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'The build script is in package.json.' }, { type: 'tool_call', id: 'c1', name: 'Bash', input: { command: 'npm run build\n--verbose' } }] },
  ];
  const outcome = (result: Partial<AgentLoopResult>) => ({
    result: { reason: 'completed' as const, text: '', usage: emptyUsage(), turns: 1, spent: { tokens: 0, costUsd: 0 }, ...result },
    messages: wrote,
    mode: 'plan' as const,
  });

  it('says a failure with the error and its code, a timeout as a timeout, and lists what it did', () => {
    const error = new AssistantError('ASSISTANT_PROVIDER_SERVER', 'the provider failed (500) on every retry');
    const failed = agentReport('general-4', 'general', outcome({ reason: 'error', message: error.message, error }));
    expect(failed).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_PROVIDER_SERVER', reason: 'error', toolCalls: 1 } });
    expect(failed.content[0]).toEqual({
      type: 'text',
      text:
        'The build script is in package.json.\n\n[Sub-agent general-4 (general) stopped before finishing: it failed (the provider failed (500) on every retry). ' +
        'Above is what it wrote in 1 turn: partial results, not a finished report. It made 1 tool call: Bash npm run build.]',
    });
    const late = agentReport('general-5', 'general', outcome({ reason: 'aborted' }), true);
    expect(late).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_TOOL_TIMEOUT' } });
    expect((late.content[0] as { text: string }).text).toContain('stopped before finishing: its Task call ran past its time limit.');
  });

  it('cuts a report past the size limit, saying how much was left out', () => {
    const long = agentReport('general-6', 'general', outcome({ text: 'x'.repeat(25_000) }));
    const text = (long.content[0] as { text: string }).text;
    expect(text.startsWith('x'.repeat(20_000) + '\n[… report cut: 5000 more characters]')).toBe(true);
  });
});
