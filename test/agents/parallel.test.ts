// Sub-agents in parallel, through the fake LLM server: read-only agents overlap (a barrier in the
// fake server only opens when all three wait at once), their usage joins the session's totals, and
// write-capable agents editing one file take turns in the shared lock table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage, type OriginEvent } from '../../dist/core/index.js';
import { agentSession, useFakeLlm, firstRequestOf, resultFor, systemOf, textOf, toolsOffered } from './support.js';

const llm = useFakeLlm();

/** A read-only reviewer of one file: waits at the barrier, reads its file, reports. */
const reviewer = (file: string, finding: string) => [
  {
    name: `${file}: read`,
    when: { userText: `Review ${file} for bugs` },
    barrier: { name: 'all-three', parties: 3 },
    reply: { text: `Reading ${file}.`, toolCalls: [{ id: `read_${file}`, name: 'Read', input: { file_path: file } }] },
  },
  { name: `${file}: report`, when: { toolResultFor: `read_${file}` }, reply: { text: finding } },
];

const THREE_REVIEWS = {
  turns: [
    {
      name: 'main: delegate',
      when: { userText: 'check the three modules' },
      reply: {
        text: 'Starting three reviewers.',
        toolCalls: ['a.js', 'b.js', 'c.js'].map((file) => ({
          id: `task_${file[0]}`,
          name: 'Task',
          input: { description: `review ${file}`, prompt: `Review ${file} for bugs and report them with line numbers.` },
        })),
      },
    },
    ...reviewer('a.js', 'a.js:2 divides by zero when n is 0.'),
    ...reviewer('b.js', 'b.js looks correct.'),
    ...reviewer('c.js', 'c.js:1 shadows the global name.'),
    { name: 'main: summary', when: { toolResultFor: 'task_a' }, reply: { text: 'Two bugs found: a.js:2 and c.js:1.' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

const MODULES = { 'a.js': 'export function f(n) {\n  return 1 / n;\n}\n', 'b.js': 'export const b = 2;\n', 'c.js': 'const name = 1;\n' };

describe('parallel read-only sub-agents', () => {
  it('run at the same time, each with its own context and the read-only tools, and report back', async () => {
    llm.script(THREE_REVIEWS);
    const s = await agentSession(llm.fake, MODULES);
    try {
      const result = await s.runner.run('check the three modules');
      expect(result.reason).toBe('completed');
      expect(result.text).toBe('Two bugs found: a.js:2 and c.js:1.');
      expect(llm.fake.requests.map((r) => r.turn)).not.toContain('fallback');

      // Overlap, observed: the three first requests were held until all three waited together.
      const firsts = ['a.js', 'b.js', 'c.js'].map((file) => firstRequestOf(llm.fake, `Review ${file} for bugs`));
      expect(firsts.map((r) => r.barrier)).toEqual(['released', 'released', 'released']);

      // Each report is the result of its own Task call.
      expect(textOf(resultFor(s.runner, 'task_a'))).toBe('a.js:2 divides by zero when n is 0.');
      expect(textOf(resultFor(s.runner, 'task_b'))).toBe('b.js looks correct.');
      expect(textOf(resultFor(s.runner, 'task_c'))).toBe('c.js:1 shadows the global name.');
      expect(resultFor(s.runner, 'task_a').metadata).toMatchObject({ agentType: 'general', reason: 'completed', turns: 2, toolCalls: 1 });

      // A fresh context: the sub-agent's history starts with its task, under its own instructions.
      for (const request of firsts) {
        expect(request.body.messages).toHaveLength(1);
        expect(systemOf(request)).toContain('You are a sub-agent of a coding assistant');
        expect(systemOf(request)).toContain('You are read-only');
        expect(JSON.stringify(request.body)).not.toContain('check the three modules');
        expect(toolsOffered(request)).toEqual(['Bash', 'Glob', 'Grep', 'LS', 'Read']);
      }
      expect(toolsOffered(llm.fake.requests[0]!)).toContain('Task');

      // Their calls carry their agent id and the Task call that started them.
      const reads = s.events.filter((e): e is Extract<OriginEvent, { type: 'tool_end' }> => e.type === 'tool_end' && e.call.name === 'Read');
      expect(reads.map((e) => [e.call.input.file_path, e.parentCallId]).sort()).toEqual([
        ['a.js', 'task_a'],
        ['b.js', 'task_b'],
        ['c.js', 'task_c'],
      ]);
      expect(new Set(reads.map((e) => e.agentId)).size).toBe(3);
      expect(reads.every((e) => /^general-\d+$/.test(e.agentId ?? '') && e.result.isError !== true)).toBe(true);
      const done = s.events.filter((e) => e.type === 'done' && e.agentId);
      expect(done.map((e) => (e as { reason: string }).reason)).toEqual(['completed', 'completed', 'completed']);
    } finally {
      await s.kernel.shutdown();
    }
  });

  it("add the children's usage to the session's totals and the ledger", async () => {
    llm.script(THREE_REVIEWS);
    const s = await agentSession(llm.fake, MODULES);
    try {
      await s.runner.run('check the three modules');
      const ledger = s.kernel.budget;
      expect(ledger.requests).toHaveLength(8);
      const agents = new Set(ledger.requests.map((r) => r.agentId).filter(Boolean));
      expect(agents.size).toBe(3);
      // What the fake server reported for every request, main and sub-agents alike.
      const reported = llm.fake.requests.reduce(
        (sum, r) => addUsage(sum, { inputTokens: r.usage.inputTokens, cacheReadTokens: r.usage.cacheReadTokens, cacheWriteTokens: r.usage.cacheWriteTokens }),
        emptyUsage(),
      );
      const totals = ledger.totals().usage;
      expect({ ...totals, outputTokens: 0 }).toEqual(reported);
      expect(s.runner.session.usage).toEqual(totals);
      const main = ledger.totals(null).usage;
      expect(main.inputTokens + main.cacheReadTokens + main.cacheWriteTokens).toBeLessThan(reported.inputTokens + reported.cacheReadTokens + reported.cacheWriteTokens);
      s.kernel.hooks.commands.call(s.kernel.commands);
      const cost = await s.kernel.commands.slash('cost')!.run('', { print: () => undefined });
      expect(cost).toContain('for 8 requests');
      expect(cost).toMatch(/\(general-\d+\)/);
    } finally {
      await s.kernel.shutdown();
    }
  });
});

/** An editor agent that changes one word of notes.txt: read, edit (after the barrier), re-read and retry on a conflict. */
const editor = (word: string) => {
  const upper = word.toUpperCase();
  const edit = (id: string) => ({ id, name: 'Edit', input: { file_path: 'notes.txt', old_string: word, new_string: upper } });
  return [
    { name: `${word}: read`, when: { userText: `Change the word ${word}` }, reply: { toolCalls: [{ id: `read1_${word}`, name: 'Read', input: { file_path: 'notes.txt' } }] } },
    // Both editors send their Edit only once both have read the file: the edits reach the scheduler together.
    { name: `${word}: edit`, when: { toolResultFor: `read1_${word}` }, barrier: { name: 'both-read', parties: 2 }, reply: { toolCalls: [edit(`edit1_${word}`)] } },
    { name: `${word}: conflict`, when: { toolResultFor: `edit1_${word}`, toolResultContains: 'changed since you last read' }, reply: { toolCalls: [{ id: `read2_${word}`, name: 'Read', input: { file_path: 'notes.txt' } }] } },
    { name: `${word}: edit again`, when: { toolResultFor: `read2_${word}` }, reply: { toolCalls: [edit(`edit2_${word}`)] } },
    { name: `${word}: done`, when: { toolResultFor: `edit1_${word}` }, reply: { text: `Changed ${word}.` } },
    { name: `${word}: done after retry`, when: { toolResultFor: `edit2_${word}` }, reply: { text: `Changed ${word} after re-reading.` } },
  ];
};

describe('parallel write-capable sub-agents', () => {
  it('edit one file one after the other through the shared lock table, and both edits land', async () => {
    llm.script({
      turns: [
        {
          name: 'main: delegate',
          when: { userText: 'capitalise both words' },
          reply: {
            toolCalls: ['alpha', 'beta'].map((word) => ({
              id: `task_${word}`,
              name: 'Task',
              input: { description: `change ${word}`, subagent_type: 'editor', prompt: `Change the word ${word} in notes.txt to upper case.` },
            })),
          },
        },
        ...editor('alpha'),
        ...editor('beta'),
        { name: 'main: done', when: { toolResultFor: 'task_alpha' }, reply: { text: 'Both words are capitalised.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const s = await agentSession(llm.fake, { 'notes.txt': 'alpha\nbeta\n' }, {
      mode: 'acceptEdits',
      config: { agents: { editor: { description: 'Makes small edits it is told to make.', prompt: 'You edit files exactly as told.', tools: ['Read', 'Edit'] } } },
    });
    // Edit's main-thread steps run while it holds its locks: `prepare` just after it took them,
    // `settle` once its write is done, just before it lets go.
    const timeline: string[] = [];
    const agents: string[] = [];
    const edit = s.kernel.tools.get('Edit')!;
    const { prepare, settle } = edit;
    edit.prepare = (input, context) => (timeline.push('locked'), prepare?.(input, context));
    edit.settle = (result, input, context) => {
      timeline.push(result.metadata?.conflict ? 'conflict' : result.isError ? 'failed' : 'edited');
      agents.push(context.agentId!);
      settle?.(result, input, context);
    };
    try {
      const result = await s.runner.run('capitalise both words');
      expect(result.text).toBe('Both words are capitalised.');
      expect(llm.fake.requests.map((r) => r.turn)).not.toContain('fallback');
      expect(readFileSync(join(s.dir, 'notes.txt'), 'utf8')).toBe('ALPHA\nBETA\n');
      expect(systemOf(firstRequestOf(llm.fake, 'Change the word alpha'))).not.toContain('You are read-only');

      // Both first edits were sent together (the barrier opened for both)...
      expect(llm.fake.requests.filter((r) => r.turn?.endsWith(': edit')).map((r) => r.barrier)).toEqual(['released', 'released']);
      // ...yet each Edit took its locks only after the one before it was done with the file. The
      // second saw the first one's change, so its agent re-read the file and redid its edit.
      expect(timeline).toEqual(['locked', 'edited', 'locked', 'conflict', 'locked', 'edited']);
      expect(agents[1]).not.toBe(agents[0]);
      expect(agents[2]).toBe(agents[1]);
      const retried = s.events.find((e) => e.agentId === agents[1])!.parentCallId;
      expect(textOf(resultFor(s.runner, 'task_alpha'))).toBe(retried === 'task_alpha' ? 'Changed alpha after re-reading.' : 'Changed alpha.');
      expect(textOf(resultFor(s.runner, 'task_beta'))).toBe(retried === 'task_beta' ? 'Changed beta after re-reading.' : 'Changed beta.');
    } finally {
      await s.kernel.shutdown();
    }
  });
});
