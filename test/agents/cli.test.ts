// Sub-agents end to end: the built CLI (`assistant -p`), the fake LLM server, a temp git project
// with its own agent files, the real tools and permission engine.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, jsonLines, runHeadless, startFakeLlm, type FakeLlm } from '../e2e/support.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

const PROJECT = {
  'src/config.js': 'export function loadConfig(path) {\n  return JSON.parse(path);\n}\n',
  'src/app.js': "import { loadConfig } from './config.js';\nloadConfig('app.json');\n",
  '.assistant/agents/finder.md': '---\ndescription: Finds where something is defined and used.\ntools: Grep, Read\n---\nYou find definitions and uses. Answer with file:line.\n',
  '.assistant/agents/half.md': '---\ntools: Read\n---\nA file without a description.\n',
};

const FIXTURE = {
  turns: [
    {
      name: 'main: delegate',
      when: { userText: 'where is the config loaded' },
      reply: {
        text: 'Let me send a finder.',
        toolCalls: [{ id: 'find_1', name: 'Task', input: { description: 'find loadConfig', subagent_type: 'finder', prompt: 'Find where loadConfig is defined and called.' } }],
      },
    },
    { name: 'finder: grep', when: { userText: 'Find where loadConfig is defined and called.' }, reply: { toolCalls: [{ id: 'grep_1', name: 'Grep', input: { pattern: 'loadConfig' } }] } },
    { name: 'finder: report', when: { toolResultFor: 'grep_1', toolResultContains: 'src/config.js' }, reply: { text: 'Defined at src/config.js:1, called at src/app.js:2.' } },
    { name: 'main: answer', when: { toolResultFor: 'find_1', toolResultContains: 'src/config.js:1' }, reply: { text: 'loadConfig is defined in src/config.js:1 and called from src/app.js:2.' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

describe('assistant -p with sub-agents', () => {
  it('prints the answer the model gave after its sub-agent reported, and warns once about a bad agent file', async () => {
    fake.setFixture(FIXTURE);
    fake.reset();
    const dir = gitProject(PROJECT);
    const r = await runHeadless(fake, dir, ['where is the config loaded']);
    expect(r.stdout).toBe('loadConfig is defined in src/config.js:1 and called from src/app.js:2.\n');
    expect(r.code).toBe(0);
    expect(fake.requests.map((q) => q.turn)).toEqual(['main: delegate', 'finder: grep', 'finder: report', 'main: answer']);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('ASSISTANT_AGENT_DEFINITION_INVALID'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('half.md: front matter must have the key "description"; the file was skipped');
  });

  it('streams the sub-agent events with agent_id and parent_call_id, valid against the schema, and totals the usage', async () => {
    fake.setFixture(FIXTURE);
    fake.reset();
    const dir = gitProject(PROJECT);
    const r = await runHeadless(fake, dir, ['where is the config loaded', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(readFileSync(new URL('../../docs/stream-json.schema.json', import.meta.url), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const lines = jsonLines(r.stdout);
    for (const line of lines) expect(validate(line) ? 'valid' : `${JSON.stringify(line)}: ${JSON.stringify(validate.errors)}`).toBe('valid');

    const sub = lines.filter((l) => l.agent_id);
    expect(sub.length).toBeGreaterThan(0);
    expect(sub.every((l) => l.agent_id === 'finder-1' && l.parent_call_id === 'find_1')).toBe(true);
    expect(sub.find((l) => l.type === 'tool_result')).toMatchObject({ name: 'Grep', id: 'grep_1', is_error: false });
    expect(lines.filter((l) => !l.agent_id).every((l) => l.parent_call_id === undefined)).toBe(true);
    // The sub-agent's work happens between the Task call's start and its result.
    const at = (pred: (l: Record<string, any>) => boolean) => lines.findIndex(pred);
    const taskStart = at((l) => l.type === 'tool_start' && l.id === 'find_1');
    const taskEnd = at((l) => l.type === 'tool_result' && l.id === 'find_1');
    expect(taskStart).toBeLessThan(at((l) => l.agent_id !== undefined));
    expect(lines.findLastIndex((l) => l.agent_id !== undefined)).toBeLessThan(taskEnd);
    expect(lines[taskEnd]!.content[0].text).toBe('Defined at src/config.js:1, called at src/app.js:2.');

    const result = lines.at(-1)!;
    expect(result).toMatchObject({ type: 'result', reason: 'completed' });
    const input = (u: Record<string, number>) => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
    const served = fake.requests.reduce((n, q) => n + q.usage.inputTokens + q.usage.cacheReadTokens + q.usage.cacheWriteTokens, 0);
    expect(input(result.total_usage)).toBe(served);
    expect(input(result.usage)).toBeLessThan(served);
  });
});
