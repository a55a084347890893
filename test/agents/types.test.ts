// Agent types: from agent files (the project's and the user's), from config, and the built-in
// `general`; what the Task tool tells the model about them; and what a type decides for its agent.
import { describe, expect, it } from 'vitest';
import { isAssistantError } from '../../dist/core/index.js';
import { parseAgentFile, readAgentDirectory } from '../../dist/plugins/agents/agent-files.js';
import { agentMode, stricterMode } from '../../dist/plugins/agents/agent-type.js';
import { toolMatcher } from '../../dist/plugins/agents/tool-patterns.js';
import { tempDir, writeFiles } from '../support/project.js';
import { agentSession, useFakeLlm, firstRequestOf, resultFor, systemOf, textOf, toolsOffered } from './support.js';

const llm = useFakeLlm();

const REVIEWER = `---
name: reviewer
description: Reviews a change for bugs and risky patterns.
tools: Read, Grep
model: claude-haiku-4-5
maxTurns: 4
color: blue
---
You are a meticulous code reviewer. Report every bug as file:line and one sentence.
`;

describe('agent types from files and config', () => {
  it('offers the types by description, and runs one with its prompt, tools and model', async () => {
    writeFiles(llm.userAgents, {
      'reviewer.md': '---\ndescription: The user\'s own reviewer, replaced by the project\'s.\n---\nUser prompt.\n',
      'tester.md': '---\ndescription: Writes and runs tests.\ntools:\n  - Read\n  - Write\n  - Bash\n---\nYou write tests.\n',
    });
    llm.script({
      turns: [
        {
          name: 'main',
          when: { userText: 'review my change' },
          reply: { toolCalls: [{ id: 'rev', name: 'Task', input: { description: 'review the change', subagent_type: 'reviewer', prompt: 'Review src/app.js for bugs.' } }] },
        },
        { name: 'reviewer', when: { userText: 'Review src/app.js for bugs.' }, reply: { text: 'src/app.js:1 never returns.' } },
        { name: 'main: done', when: { toolResultFor: 'rev' }, reply: { text: 'One bug.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const s = await agentSession(
      llm.fake,
      {
        'src/app.js': 'function f() {}\n',
        '.assistant/agents/reviewer.md': REVIEWER,
        '.assistant/agents/broken.md': '---\ntools: Read\n---\nNo description above.\n',
      },
      { config: { agents: { general: { description: 'General agent of this project: knows its layout.', maxTurns: 5 } } } },
    );
    try {
      const result = await s.runner.run('review my change');
      expect(result.text).toBe('One bug.');
      const task = llm.fake.requests[0]!.body.tools.find((t: { name: string }) => t.name === 'Task');
      const listed = task.description.slice(task.description.indexOf('Agent types'));
      expect(listed).toBe(
        [
          'Agent types (`subagent_type`, default `general`):',
          '- general: General agent of this project: knows its layout. (tools: Read, Grep, Glob, LS, Bash; read-only)',
          '- reviewer: Reviews a change for bugs and risky patterns. (tools: Read, Grep; model claude-haiku-4-5)',
          '- tester: Writes and runs tests. (tools: Read, Write, Bash)',
        ].join('\n'),
      );
      const sub = firstRequestOf(llm.fake, 'Review src/app.js for bugs.');
      expect(sub.body.model).toBe('claude-haiku-4-5');
      expect(systemOf(sub)).toContain('You are a meticulous code reviewer.');
      expect(systemOf(sub)).not.toContain('User prompt.');
      expect(toolsOffered(sub)).toEqual(['Grep', 'Read']);
      expect(textOf(resultFor(s.runner, 'rev'))).toBe('src/app.js:1 never returns.');
    } finally {
      await s.kernel.shutdown();
    }
  });

  it('reads a directory, skipping bad files with a coded error that names them', async () => {
    const dir = tempDir();
    writeFiles(dir, {
      'a-good.md': '---\ndescription: Good.\n---\nPrompt.\n',
      'b-no-front-matter.md': 'Just a prompt.\n',
      'c-bad-yaml.md': '---\ndescription: [unclosed\n---\nPrompt.\n',
      'd-no-description.md': '---\ntools: Read\n---\nPrompt.\n',
      'e-empty-body.md': '---\ndescription: Nothing below.\n---\n\n',
      'f-bad-turns.md': '---\ndescription: Bad limit.\nmaxTurns: many\n---\nPrompt.\n',
      'g-bad-name.md': '---\nname: has spaces\ndescription: Bad name.\n---\nPrompt.\n',
      'notes.txt': 'not an agent file',
    });
    const found = await readAgentDirectory(dir);
    expect(found.types.map((t) => t.name)).toEqual(['a-good']);
    expect(found.problems.every((p) => isAssistantError(p) && p.code === 'ASSISTANT_AGENT_DEFINITION_INVALID')).toBe(true);
    const messages = found.problems.map((p) => p.message.replace(dir + '/', ''));
    expect(messages).toEqual([
      'agent file b-no-front-matter.md: it does not start with front matter (a `---` line, `description: ...`, a `---` line); the file was skipped',
      expect.stringMatching(/^agent file c-bad-yaml\.md: the front matter is not valid YAML \(.+\); the file was skipped$/),
      'agent file d-no-description.md: front matter must have the key "description"; the file was skipped',
      'agent file e-empty-body.md: the body after the front matter (the prompt) is empty; the file was skipped',
      'agent file f-bad-turns.md: front matter /maxTurns: must be integer (got "many"); the file was skipped',
      'agent file g-bad-name.md: the name "has spaces" is not a valid agent name (letters, digits, - and _, up to 48 characters); the file was skipped',
    ]);
    expect(await readAgentDirectory(`${dir}/missing`)).toEqual({ types: [], problems: [], ignored: [] });
  });

  it('takes the name from the file name and tools as a list or a comma-separated string', () => {
    const { type, ignored } = parseAgentFile('---\ndescription: d\ntools: Read, mcp__github__*\ncolor: red\n---\nBody\n', '/x/my-agent.md');
    expect(type).toMatchObject({ name: 'my-agent', description: 'd', tools: ['Read', 'mcp__github__*'], prompt: 'Body', source: '/x/my-agent.md' });
    expect(ignored).toEqual(['color']);
  });
});

describe('what a type decides', () => {
  it('admits tools by exact name or pattern, and Task only by name', () => {
    const admits = toolMatcher(['Read', 'mcp__github__*', '*_search']);
    expect(['Read', 'mcp__github__list', 'web_search', 'Grep', 'mcp__jira__get', 'Task'].map(admits)).toEqual([true, true, true, false, false, false]);
    expect(toolMatcher(['*'])('Task')).toBe(false);
    expect(toolMatcher(['*'])('Edit')).toBe(true);
    expect(toolMatcher(['Task'])('Task')).toBe(true);
  });

  it('runs read-only types in plan mode and never looser than the caller', () => {
    expect(agentMode({}, 'bypass')).toBe('plan');
    expect(agentMode({ tools: ['Read', 'Edit'] }, 'acceptEdits')).toBe('acceptEdits');
    expect(agentMode({ tools: ['Edit'], permissionMode: 'bypass' }, 'default')).toBe('default');
    expect(agentMode({ tools: ['Edit'], permissionMode: 'acceptEdits' }, 'bypass')).toBe('acceptEdits');
    expect(agentMode({ tools: ['Edit'] }, 'plan')).toBe('plan');
    expect(stricterMode('default', 'acceptEdits')).toBe('default');
  });
});
