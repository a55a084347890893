// Replies that break off mid-stream, end to end: the built CLI, the real SDK clients of both
// providers, the fake server's fault injection, real tools in a temp git repository. The task must
// complete with the edit right, and nothing of a broken reply may reach stdout.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec, Fixture, TurnSpec } from '../../dist/core/testing/index.js';
import { gitProject, jsonLines, requestText, runHeadless, startFakeLlm, type FakeLlm } from './support.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

const BEFORE = "export const greet = (name) => 'Helo, ' + name;\n";
const AFTER = "export const greet = (name) => 'Hello, ' + name;\n";
const FINAL = 'Fixed the typo: greet now says Hello.';
const READ_TEXT = 'Let me read greet.js first, to see the greeting.';
const EDIT_TEXT = 'The greeting misspells Hello; fixing it in place.';

// Past the first text delta on both wire formats, so part of the reply has been streamed.
const afterContent = (provider: 'anthropic' | 'openai') => (provider === 'anthropic' ? 4 : 3);

/** The measured run: 429 → 529 → reset mid-stream → tool JSON cut in half → malformed event, on the edit. */
function faultChain(provider: 'anthropic' | 'openai'): FaultSpec[] {
  return [
    { status: 429, retryAfterMs: 10 },
    { status: 529 },
    { type: 'reset_mid_stream', afterEvents: afterContent(provider) },
    { type: 'truncate_tool_input' },
    { type: 'malformed_sse', afterEvents: afterContent(provider) },
  ];
}

/** Read the file, edit it (after `faults`), then answer. */
function task(faults: FaultSpec[]): Fixture & { turns: TurnSpec[] } {
  return {
    turns: [
      { name: 'read', when: { userText: 'fix the greeting' }, reply: { text: READ_TEXT, toolCalls: [{ id: 'read_1', name: 'Read', input: { file_path: 'greet.js' } }] } },
      {
        name: 'edit',
        when: { toolResultFor: 'read_1' },
        faults,
        reply: { text: EDIT_TEXT, toolCalls: [{ id: 'edit_1', name: 'Edit', input: { file_path: 'greet.js', old_string: "'Helo, '", new_string: "'Hello, '" } }] },
      },
      { name: 'done', when: { toolResultFor: 'edit_1' }, reply: { text: FINAL } },
    ],
    fallback: { text: 'UNEXPECTED REQUEST' },
  };
}

/** A project whose config keeps retry waits short (the default backoff starts at 1 s). */
function project(retries: Record<string, unknown> = {}): string {
  const dir = gitProject({ 'greet.js': BEFORE });
  writeFileSync(join(dir, '.assistantrc.json'), JSON.stringify({ provider: { retries: { initialDelayMs: 10, maxDelayMs: 50, jitter: 0, ...retries } } }));
  return dir;
}

const ARGS = ['fix the greeting', '--permission-mode', 'acceptEdits'];

describe.each(['anthropic', 'openai'] as const)('assistant -p --provider %s: broken replies', (provider) => {
  it('completes the task through 429, 529, a reset, cut tool JSON and a malformed event', async () => {
    fake.setFixture(task(faultChain(provider)));
    fake.reset();
    const dir = project();
    const r = await runHeadless(fake, dir, ARGS, { provider });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(FINAL + '\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'greet.js'), 'utf8')).toBe(AFTER);
    expect(fake.requests.map((q) => q.fault ?? q.turn)).toEqual(['read', 'status 429', 'status 529', 'reset_mid_stream', 'truncate_tool_input', 'malformed_sse', 'edit', 'done']);
    // No broken call ran and none was reported to the model: the retried reply replaced it.
    expect(fake.requests.map(requestText).join('\n')).not.toMatch(/not complete JSON|cut off/);
  });

  // Every fault kind of the fake server, alone, on the reply that edits.
  it.each<[string, FaultSpec]>([
    ['429', { status: 429 }],
    ['529', { status: 529 }],
    ['500', { status: 500 }],
    ['503', { status: 503 }],
    ['a reset before the headers', { type: 'reset_before_headers' }],
    ['a first byte slower than the timeout', { type: 'slow_first_byte', delayMs: 20_000 }],
    ['a stall after part of the reply', { type: 'stall_after_headers', afterEvents: afterContent(provider) }],
    ['a reset after part of the reply', { type: 'reset_mid_stream', afterEvents: afterContent(provider) }],
    ['a malformed event after part of the reply', { type: 'malformed_sse', afterEvents: afterContent(provider) }],
    ['an error event after part of the reply', { type: 'error_event', afterEvents: afterContent(provider) }],
    ['tool JSON cut in half', { type: 'truncate_tool_input' }],
  ])('recovers from %s: the edit is right, and stdout holds only the answer', async (_, fault) => {
    fake.setFixture(task([fault]));
    fake.reset();
    const dir = gitProject({ 'greet.js': BEFORE });
    // Timeouts short enough to keep the test quick, long enough for a loaded machine's good replies.
    writeFileSync(join(dir, '.assistantrc.json'), JSON.stringify({ provider: { timeoutMs: 3000, idleTimeoutMs: 3000, retries: { initialDelayMs: 10, maxDelayMs: 50, jitter: 0 } } }));
    const r = await runHeadless(fake, dir, ARGS, { provider });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(FINAL + '\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'greet.js'), 'utf8')).toBe(AFTER);
    const seen = fake.requests.map((q) => q.fault ?? q.turn);
    expect(seen[1]).toBe('status' in fault ? `status ${fault.status}` : fault.type);
    expect(seen.slice(-2)).toEqual(['edit', 'done']);
    expect(fake.requests.map(requestText).join('\n')).not.toMatch(/not complete JSON|cut off|UNEXPECTED REQUEST/);
  });

  it('stream-json: every broken reply is followed by a retry that discards it; only completed replies remain', async () => {
    fake.setFixture(task(faultChain(provider)));
    fake.reset();
    const dir = project();
    const r = await runHeadless(fake, dir, [...ARGS, '--output-format', 'stream-json'], { provider });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const schema = JSON.parse(readFileSync(new URL('../../docs/stream-json.schema.json', import.meta.url), 'utf8'));
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const line of lines) expect(validate(line), JSON.stringify(line) + JSON.stringify(validate.errors)).toBe(true);

    const retries = lines.filter((l) => l.type === 'retry');
    expect(retries.map((l) => l.discard)).toEqual([false, false, true, true, true]);
    // A consumer that drops the current message on `discard` sees each reply once, whole.
    const messages: string[] = [];
    let current = '';
    for (const line of lines) {
      if (line.type === 'text_delta') current += line.text;
      if (line.type === 'retry' && line.discard) current = '';
      if (line.type === 'message_end') {
        messages.push(current);
        current = '';
      }
    }
    expect(messages).toEqual([READ_TEXT, EDIT_TEXT, FINAL]);
    expect(lines.filter((l) => l.type === 'tool_call').map((l) => [l.name, l.input_error])).toEqual([
      ['Read', undefined],
      ['Edit', undefined],
    ]);
    expect(lines.filter((l) => l.type === 'tool_result').map((l) => [l.name, l.is_error])).toEqual([
      ['Read', false],
      ['Edit', false],
    ]);
    expect(lines[lines.length - 1]).toMatchObject({ type: 'result', reason: 'completed', text: FINAL });
    expect(readFileSync(join(dir, 'greet.js'), 'utf8')).toBe(AFTER);
  });

  it('never runs a tool call whose JSON was cut off, even with no retry left: the model is told instead', async () => {
    // One character short of complete: every field is there, the closing brace is not.
    const edit = { file_path: 'greet.js', old_string: "'Helo, '", new_string: "'Hello, '" };
    const fixture = task([{ type: 'truncate_tool_input', keepChars: JSON.stringify(edit).length - 1 }]);
    // The model, told its call was cut off, sends it again (a real provider gives it a new id).
    fixture.turns.splice(2, 0, {
      name: 'edit again',
      when: { toolResultFor: 'edit_1', toolResultContains: 'not run' },
      reply: { text: EDIT_TEXT, toolCalls: [{ id: 'edit_2', name: 'Edit', input: edit }] },
    });
    fixture.turns[3]!.when = { toolResultFor: 'edit_2' };
    fake.setFixture(fixture);
    fake.reset();
    const dir = project({ attempts: 0 });
    const r = await runHeadless(fake, dir, [...ARGS, '--output-format', 'stream-json'], { provider });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const edits = lines.filter((l) => l.type === 'tool_result' && l.name === 'Edit');
    expect(edits.map((l) => [l.id, l.is_error])).toEqual([
      ['edit_1', true],
      ['edit_2', false],
    ]);
    expect(edits[0]!.content[0].text).toMatch(/incomplete or malformed .*not run/);
    expect(lines.find((l) => l.type === 'tool_call' && l.id === 'edit_1')).toMatchObject({ input: {}, input_error: expect.any(String) });
    expect(fake.requests.map((q) => q.fault ?? q.turn)).toEqual(['read', 'truncate_tool_input', 'edit again', 'done']);
    expect(readFileSync(join(dir, 'greet.js'), 'utf8')).toBe(AFTER);
  });

  it('text output: a reply that breaks off with no retry left prints nothing of it', async () => {
    fake.setFixture(task([{ type: 'reset_mid_stream', afterEvents: afterContent(provider) }]));
    fake.reset();
    const dir = project({ attempts: 0 });
    const r = await runHeadless(fake, dir, ARGS, { provider });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(READ_TEXT + '\n');
    expect(r.stderr).toMatch(/broke off after \d+ streamed events? and could not be retried/);
    expect(r.stderr).not.toMatch(/^\s+at |\{\s*"/m);
    expect(readFileSync(join(dir, 'greet.js'), 'utf8')).toBe(BEFORE);
  });
});

describe('assistant -p with the default retry policy', () => {
  it('completes the measured fault run (429, 529, reset, cut tool JSON, malformed event) within the default budget', async () => {
    // The default backoff (1 s, 2 s, 4 s, 8 s, 10 s) makes this run take about 20 s: one provider is enough.
    fake.setFixture(task(faultChain('anthropic')));
    fake.reset();
    const dir = gitProject({ 'greet.js': BEFORE });
    const r = await runHeadless(fake, dir, ARGS);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(FINAL + '\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'greet.js'), 'utf8')).toBe(AFTER);
  });
});
