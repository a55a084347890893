// The agent loop end to end: the built CLI, the fake LLM server, a temp git repository, real tools
// and the real permission engine.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, jsonLines, requestText, runHeadless, startFakeLlm, type FakeLlm } from './support.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

function script(fixture: object): void {
  fake.setFixture(fixture);
  fake.reset();
}

const BUGGY = {
  'src/sum.js': 'export function sum(a, b) {\n  return a - b;\n}\n',
  'test.js':
    "import { sum } from './src/sum.js';\nif (sum(2, 3) === 5) console.log('PASS sum');\nelse { console.log('FAIL sum: expected 5, got ' + sum(2, 3)); process.exit(1); }\n",
  'package.json': '{ "type": "module" }\n',
};

/** read → run the tests → edit → run the tests → done. */
const FIX_THE_TEST = {
  turns: [
    {
      name: 'look',
      when: { userText: 'fix the failing test' },
      reply: {
        text: 'Let me look at the code and run the test.',
        toolCalls: [
          { id: 'read_sum', name: 'Read', input: { file_path: 'src/sum.js' } },
          { id: 'test_1', name: 'Bash', input: { command: 'node test.js', description: 'run the test' } },
        ],
      },
    },
    {
      name: 'fix',
      when: { toolResultFor: 'test_1', toolResultContains: 'FAIL sum: expected 5, got -1' },
      reply: { text: 'sum subtracts; fixing.', toolCalls: [{ id: 'edit_1', name: 'Edit', input: { file_path: 'src/sum.js', old_string: 'a - b', new_string: 'a + b' } }] },
    },
    {
      name: 'retest',
      when: { toolResultFor: 'edit_1' },
      reply: { toolCalls: [{ id: 'test_2', name: 'Bash', input: { command: 'node test.js' } }] },
    },
    { name: 'done', when: { toolResultFor: 'test_2', toolResultContains: 'PASS sum' }, reply: { text: 'Fixed: sum subtracted instead of adding. The test passes.' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

describe('assistant -p: the agent loop', () => {
  it('reads, runs the tests, edits, runs them again and finishes', async () => {
    script(FIX_THE_TEST);
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'fix the failing test', '--permission-mode', 'acceptEdits', '--allowed-tools', 'Bash(node test.js)']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Fixed: sum subtracted instead of adding. The test passes.\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'src/sum.js'), 'utf8')).toBe('export function sum(a, b) {\n  return a + b;\n}\n');
    expect(fake.requests.map((q) => q.turn)).toEqual(['look', 'fix', 'retest', 'done']);
    expect(execFileSync('node', ['test.js'], { cwd: dir, encoding: 'utf8' })).toBe('PASS sum\n');
  });

  it('streams events that validate against the published stream-json schema', async () => {
    script(FIX_THE_TEST);
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'fix the failing test', '--permission-mode', 'acceptEdits', '--allowed-tools', 'Bash(node test.js)', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(readFileSync(new URL('../../docs/stream-json.schema.json', import.meta.url), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const lines = jsonLines(r.stdout);
    for (const line of lines) expect(validate(line) ? 'valid' : `${JSON.stringify(line)}: ${JSON.stringify(validate.errors)}`).toBe('valid');
    const types = new Set(lines.map((l) => l.type));
    for (const t of ['turn_start', 'text_delta', 'tool_call', 'permission', 'tool_start', 'tool_result', 'usage', 'message_end', 'turn_end', 'result'])
      expect(types).toContain(t);
    expect(lines.at(-1)).toMatchObject({ type: 'result', reason: 'completed', is_error: false, turns: 4 });
    const edit = lines.find((l) => l.type === 'permission' && l.tool === 'Edit');
    expect(edit).toMatchObject({ behavior: 'allow' });
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(1);
  });

  it('denies in headless mode what would need approval, and tells the model how it could be allowed', async () => {
    script({
      turns: [
        { name: 'edit', when: { userText: 'fix' }, reply: { toolCalls: [{ id: 'edit_1', name: 'Edit', input: { file_path: 'src/sum.js', old_string: 'a - b', new_string: 'a + b' } }] } },
        { name: 'give up', when: { toolResultFor: 'edit_1' }, reply: { text: 'I was not allowed to edit src/sum.js.' } },
      ],
    });
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'fix the failing test']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('I was not allowed to edit src/sum.js.\n');
    // The user is told on stderr, whatever the answer says.
    expect(r.stderr).toBe('denied: Edit: Edit needs approval (Edit changes src/sum.js) and no one can approve in headless mode; allow it with a rule in permissions.allow or a --permission-mode, or do the task another way\n');
    expect(readFileSync(join(dir, 'src/sum.js'), 'utf8')).toContain('a - b');
    const seen = requestText(fake.requests[1]!);
    expect(seen).toMatch(/no one can approve in headless mode/);
    expect(seen).toMatch(/permissions\.allow/);
  });

  it('refuses writes in plan mode', async () => {
    script({
      turns: [
        { name: 'write', when: { userText: 'plan' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'PLAN.md', content: '# plan\n' } }] } },
        { name: 'answer', when: { toolResultFor: 'w1' }, reply: { text: 'Here is the plan instead.' } },
      ],
    });
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'plan the fix', '--permission-mode', 'plan']);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'PLAN.md'))).toBe(false);
    const result = JSON.stringify(fake.requests[1]!.body);
    expect(result).toMatch(/plan mode/i);
  });

  it('lets the model work around a denied tool call', async () => {
    script({
      turns: [
        { name: 'fetch', when: { userText: 'version' }, reply: { toolCalls: [{ id: 'net', name: 'Bash', input: { command: 'curl -s https://registry.npmjs.org/left-pad' } }] } },
        { name: 'read instead', when: { toolResultFor: 'net' }, reply: { text: 'No network; reading the manifest.', toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'package.json' } }] } },
        { name: 'answer', when: { toolResultFor: 'r1', toolResultContains: 'module' }, reply: { text: 'It is an ES module package.' } },
      ],
    });
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'what version is this?', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ type: 'result', reason: 'completed', text: 'It is an ES module package.', turns: 3 });
    expect(requestText(fake.requests[1]!)).toMatch(/"is_error":true/);
  });
});

describe('assistant -p: prompt and tool flags', () => {
  const READ_NOTES = {
    turns: [
      { name: 'read', when: { userText: 'what does notes.txt say' }, reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'notes.txt' } }] } },
      { name: 'answer', when: { toolResultFor: 'r1' }, reply: { text: 'Answered.' } },
    ],
    fallback: { text: 'UNEXPECTED REQUEST' },
  };

  it('reads the prompt from stdin when -p has none, and says so when there is none at all', async () => {
    script(READ_NOTES);
    const dir = gitProject({ 'notes.txt': 'remember the milk\n' });
    const r = await runHeadless(fake, dir, ['--trust-project', ], { input: 'what does notes.txt say?\n' });
    expect(r.stdout).toBe('Answered.\n');
    expect(r.code).toBe(0);
    expect(requestText(fake.requests[0]!)).toContain('what does notes.txt say?');
    expect(requestText(fake.requests[1]!)).toContain('remember the milk');

    const none = await runHeadless(fake, dir, ['--trust-project', ], { input: '  \n' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^ASSISTANT_USAGE: no prompt: pass it as an argument .* or on stdin/);
  });

  it('--disallowed-tools hides a bare tool name from the model and refuses a call to it anyway', async () => {
    script(READ_NOTES);
    const dir = gitProject({ 'notes.txt': 'remember the milk\n' });
    const r = await runHeadless(fake, dir, ['--trust-project', 'what does notes.txt say?', '--disallowed-tools', 'Read', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const offered = (q: { body: any }) => (q.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(offered(fake.requests[0]!)).not.toContain('Read');
    expect(offered(fake.requests[0]!)).toContain('Grep');
    const result = jsonLines(r.stdout).find((l) => l.type === 'tool_result' && l.id === 'r1');
    expect(result).toMatchObject({ is_error: true });
    expect(requestText(fake.requests[1]!)).not.toContain('remember the milk');
  });

  it('--disallowed-tools with a pattern is a deny rule: the tool stays offered, matching calls are refused', async () => {
    script({
      turns: [
        { name: 'remove', when: { userText: 'clean up' }, reply: { toolCalls: [{ id: 'rm1', name: 'Bash', input: { command: 'rm notes.txt' } }] } },
        { name: 'answer', when: { toolResultFor: 'rm1' }, reply: { text: 'I could not remove it.' } },
      ],
    });
    const dir = gitProject({ 'notes.txt': 'remember the milk\n' });
    const r = await runHeadless(fake, dir, ['--trust-project', 'clean up', '--permission-mode', 'bypass', '--disallowed-tools', 'Bash(rm:*)', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
    expect((fake.requests[0]!.body.tools as Array<{ name: string }>).map((t) => t.name)).toContain('Bash');
    const decision = jsonLines(r.stdout).find((l) => l.type === 'permission' && l.call_id === 'rm1');
    expect(decision).toMatchObject({ behavior: 'deny', layer: 'rules' });
    expect(decision!.reason).toContain('Bash(rm:*)');
  });
});

describe('assistant -p: limits', () => {
  it('stops at --max-turns with exit 4 and says which limit', async () => {
    script({ turns: [{ name: 'forever', times: 0, reply: { toolCalls: [{ name: 'LS', input: { path: '.' } }] } }] });
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'list forever', '--max-turns', '3']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('stopped after 3 model turns (limits.maxTurns = 3)');
    expect(fake.requests).toHaveLength(3);
  });

  it('tells a model that repeats the same call that it seems stuck', async () => {
    const read = { name: 'Read', input: { file_path: 'package.json' } };
    script({
      turns: [
        { name: 'r1', when: { userText: 'loop' }, reply: { toolCalls: [{ id: 'a', ...read }] } },
        { name: 'r2', when: { toolResultFor: 'a' }, reply: { toolCalls: [{ id: 'b', ...read }] } },
        { name: 'r3', when: { toolResultFor: 'b' }, reply: { toolCalls: [{ id: 'c', ...read }] } },
        { name: 'unstuck', when: { contains: 'You seem stuck' }, reply: { text: 'Trying something else.' } },
      ],
    });
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'loop on it']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Trying something else.\n');
    expect(fake.requests.map((q) => q.turn)).toEqual(['r1', 'r2', 'r3', 'unstuck']);
    expect(r.stderr).toContain('repeated the same Read call 3 times');
  });

  it('stops after three tool calls fail in a row, with exit 4', async () => {
    script({
      turns: [
        { name: 'f1', when: { userText: 'missing' }, reply: { toolCalls: [{ id: 'm1', name: 'Read', input: { file_path: 'missing-1.txt' } }] } },
        { name: 'f2', when: { toolResultFor: 'm1' }, reply: { toolCalls: [{ id: 'm2', name: 'Read', input: { file_path: 'missing-2.txt' } }] } },
        { name: 'f3', when: { toolResultFor: 'm2' }, reply: { toolCalls: [{ id: 'm3', name: 'Read', input: { file_path: 'missing-3.txt' } }] } },
      ],
      fallback: { text: 'should not be asked' },
    });
    const dir = gitProject(BUGGY);
    const r = await runHeadless(fake, dir, ['--trust-project', 'read the missing files']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/stopped after 3 tool calls failed in a row \(limits\.maxToolFailures = 3\); last error: .*missing-3\.txt/);
    expect(fake.requests).toHaveLength(3);
  });

  it('stops at the token budget with exit 4', async () => {
    script({ turns: [{ name: 'forever', times: 0, reply: { text: 'more', toolCalls: [{ name: 'LS', input: { path: '.' } }] } }] });
    const dir = gitProject({ ...BUGGY, '.assistantrc': 'limits:\n  maxTokens: 1000\n' });
    const r = await runHeadless(fake, dir, ['--trust-project', 'spend tokens', '--output-format', 'json']);
    expect(r.code).toBe(4);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ reason: 'budget', is_error: true });
    expect(result.message).toMatch(/limits\.maxTokens = 1000/);
    expect(fake.requests.length).toBeLessThan(5);
  });
});
