import { describe, expect, it } from 'vitest';
import type { OriginEvent, ToolCategory, ToolCallPart } from '../../dist/core/index.js';
import { Transcript } from '../../dist/plugins/ui-terminal/transcript.js';
import { Screen } from '../../dist/plugins/ui-terminal/terminal/screen.js';
import { createStyle } from '../../dist/plugins/ui-terminal/terminal/style.js';
import { stripAnsi, visibleWidth } from '../../dist/plugins/ui-terminal/terminal/width.js';

const CATEGORIES: Record<string, ToolCategory> = { Read: 'read', Bash: 'execute', Edit: 'edit', Fetch: 'network', Grep: 'read', LS: 'read' };

function transcript(width = 79) {
  const committed: string[] = [];
  const t = new Transcript(createStyle(false), { commit: (l) => committed.push(...l), schedule: () => undefined, width }, (tool) => CATEGORIES[tool]);
  return { t, committed };
}

const call = (id: string, name: string, input: Record<string, unknown>): ToolCallPart => ({ type: 'tool_call', id, name, input });
const ran = (c: ToolCallPart, text: string, extra: Partial<Extract<OriginEvent, { type: 'tool_end' }>> = {}, isError = false): OriginEvent[] => [
  { type: 'tool_start', call: c, summary: String(c.input.file_path ?? c.input.command ?? '') },
  { type: 'tool_end', call: c, result: { type: 'tool_result', toolCallId: c.id, content: [{ type: 'text', text }], ...(isError ? { isError } : {}) }, durationMs: 20, ...extra },
];

describe('transcript', () => {
  it('shows each tool call as one tidy line: key argument and outcome', () => {
    const { t, committed } = transcript();
    const events = [
      ...ran(call('1', 'Read', { file_path: 'src/a.ts' }), 'x', { metadata: { lines: 120 } }),
      ...ran(call('2', 'Bash', { command: 'npm test' }), 'FAIL src/a.test.ts\n1 failed\nexit code 1', { metadata: { exitCode: 1 }, durationMs: 2300 }, true),
      ...ran(call('3', 'Edit', { file_path: 'src/b.ts' }), 'ok', { metadata: { added: 3, removed: 1 } }),
      ...ran(call('4', 'Read', { file_path: 'missing.ts' }), 'ENOENT: no such file', {}, true),
      ...ran(call('5', 'Fetch', { url: 'http://127.0.0.1:9/x' }), 'connect ECONNREFUSED\nretried twice', {}, true),
      ...ran(call('6', 'Grep', { pattern: 'x' }), 'a.ts:1\nb.ts:2', { metadata: { matches: 3 } }),
      ...ran(call('7', 'LS', { path: 'src' }), 'src/\n  - a.ts', { metadata: { entries: 1 } }),
    ];
    for (const e of events) t.handle(e);
    expect(committed).toEqual([
      '● Read src/a.ts (120 lines)',
      '● Bash npm test → exit 1 · 2.3s',
      '  ⎿ FAIL src/a.test.ts',
      '    1 failed',
      '    exit code 1',
      '● Edit src/b.ts (+3 −1)',
      '● Read missing.ts (✗ ENOENT: no such file)',
      '● Fetch http://127.0.0.1:9/x (✗ connect ECONNREFUSED)',
      '  ⎿ retried twice',
      '● Grep x (3 matches)',
      '● LS src (1 entry)',
    ]);
  });

  it('folds long output and shows it whole on demand', () => {
    const { t, committed } = transcript();
    const output = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    for (const e of ran(call('1', 'Bash', { command: 'seq 40' }), output, { metadata: { exitCode: 0 } })) t.handle(e);
    expect(committed.slice(-2)).toEqual(['    line 3', '    … +37 lines (ctrl+o to expand)']);
    const details = t.details(1);
    expect(details[0]).toBe('Bash seq 40  [1]');
    expect(details).toContain('  line 40');
  });

  it('shows a denial once, with the reason', () => {
    const { t, committed } = transcript();
    const c = call('9', 'Bash', { command: 'rm -rf /' });
    t.handle({ type: 'permission', request: { tool: 'Bash', input: c.input, category: 'execute', paths: [], command: 'rm -rf /', projectRoot: '/p', cwd: '/p', mode: 'default', headless: false, callId: '9' }, decision: { behavior: 'deny', reason: 'catastrophic command', layer: 'guard' } });
    t.handle({ type: 'tool_end', call: c, result: { type: 'tool_result', toolCallId: '9', content: [{ type: 'text', text: 'denied' }], isError: true }, durationMs: 0 });
    expect(committed).toEqual(['● Bash rm -rf / (denied: catastrophic command)']);
  });

  it('keeps a call on one line when the reason for its refusal is long: the reason gives way first', () => {
    const { t, committed } = transcript(70);
    const c = call('8', 'Bash', { command: 'node -e "console.log(1)"' });
    const reason = 'The user interrupted and denied this call. Stop and wait for their next instruction.';
    t.handle({ type: 'permission', request: { tool: 'Bash', input: c.input, category: 'execute', paths: [], projectRoot: '/p', cwd: '/p', mode: 'default', headless: false, callId: '8' }, decision: { behavior: 'deny', reason, layer: 'approval' } });
    t.handle({ type: 'tool_start', call: c, summary: 'node -e "console.log(1)"' });
    t.handle({ type: 'tool_end', call: c, result: { type: 'tool_result', toolCallId: '8', content: [{ type: 'text', text: reason }], isError: true }, durationMs: 0 });
    expect(committed).toHaveLength(1);
    expect(committed[0]).toMatch(/^● Bash node -e "console\.log\(1\)" \(denied: The user interrupted .*…\)$/);
    expect(visibleWidth(committed[0]!)).toBeLessThanOrEqual(70);
  });

  it('folds thinking to one line, streams text as Markdown, and keeps usage per model', () => {
    const { t, committed } = transcript();
    const model = (event: Extract<OriginEvent, { type: 'model' }>['event']): OriginEvent => ({ type: 'model', event });
    t.begin();
    t.handle({ type: 'turn_start', turn: 1 });
    t.handle(model({ type: 'message_start', model: 'm-1' }));
    t.handle(model({ type: 'thinking_delta', text: 'let me think' }));
    expect(stripAnsi(t.live().join('\n'))).toContain('✻ let me think');
    t.handle(model({ type: 'text_delta', text: '## Plan\n- one' }));
    expect(t.live().map(stripAnsi)).toContain('- one');
    const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 1, cacheWriteTokens: 2 };
    t.handle(model({ type: 'stop', reason: 'end_turn', usage, message: { role: 'assistant', content: [] } }));
    expect(committed.slice(1)).toEqual(['## Plan', '- one']);
    expect(committed[0]).toMatch(/^✻ Thought for \d+s · ctrl\+t to show thinking$/);
    expect(t.usageByModel.get('m-1')).toEqual(usage);
    t.toggleThinking();
    expect(committed.slice(-2)).toEqual(['✻ Thinking', '  let me think']);
  });

  it('shows a spinner with elapsed time, tokens and how to interrupt while busy', () => {
    const { t } = transcript();
    t.begin();
    t.handle({ type: 'model', event: { type: 'usage', usage: { inputTokens: 0, outputTokens: 1500, cacheReadTokens: 0, cacheWriteTokens: 0 } } });
    const spinner = t.live(Date.now() + 3200).pop()!;
    // 3 s unless the machine paused for most of a second between begin() and here.
    expect(spinner).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for the model… \([34]s · ↓ 1\.5k tokens · esc to interrupt\)$/);
    t.handle({ type: 'done', reason: 'completed', text: '', usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, turns: 1 });
    expect(t.live()).toEqual([]);
  });
});

describe('sub-agents in the transcript', () => {
  const usage = (n: number) => ({ inputTokens: n, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 });
  const from = (agentId: string, parentCallId: string) => (event: OriginEvent): OriginEvent => ({ ...event, agentId, parentCallId });
  const stop = (n: number): OriginEvent => ({ type: 'model', event: { type: 'stop', reason: 'end_turn', usage: usage(n), message: { role: 'assistant', content: [], meta: { model: 'sub-model' } } } });
  const done = (reason: 'completed' | 'max_turns' | 'aborted', turns: number): OriginEvent => ({ type: 'done', reason, text: '', usage: usage(0), turns });
  const taskA = call('tA', 'Task', { description: 'review a.js', prompt: 'Review a.js' });
  const taskB = call('tB', 'Task', { description: 'review b.js', prompt: 'Review b.js' });
  const end = (c: ToolCallPart, text: string, isError = false): OriginEvent => ({
    type: 'tool_end',
    call: c,
    result: { type: 'tool_result', toolCallId: c.id, content: [{ type: 'text', text }], ...(isError ? { isError } : {}) },
    durationMs: 2500,
  });

  it('keeps parallel agents apart and shows their calls nested under the Task call that started them, with a final status', () => {
    const { t, committed } = transcript();
    const a = from('general-1', 'tA');
    const b = from('general-2', 'tB');
    t.handle({ type: 'tool_start', call: taskA, summary: 'general: review a.js' });
    t.handle({ type: 'tool_start', call: taskB, summary: 'general: review b.js' });
    // Interleaved work of the two agents.
    t.handle(a({ type: 'tool_start', call: call('r1', 'Read', { file_path: 'a.js' }), summary: 'a.js' }));
    t.handle(b({ type: 'tool_start', call: call('r1', 'Bash', { command: 'rm -rf build' }), summary: 'rm -rf build' }));
    expect(t.live().map(stripAnsi)).toEqual([
      expect.stringMatching(/^. Task general: review a\.js$/),
      '  ⎿ Read a.js · 0 tool uses · 0 tokens',
      expect.stringMatching(/^. Task general: review b\.js$/),
      '  ⎿ Bash rm -rf build · 0 tool uses · 0 tokens',
    ]);
    for (const e of ran(call('r1', 'Read', { file_path: 'a.js' }), 'x', { metadata: { lines: 3 } }).slice(1)) t.handle(a(e));
    t.handle(b({ type: 'permission', request: { tool: 'Bash', input: { command: 'rm -rf build' }, category: 'execute', paths: [], command: 'rm -rf build', projectRoot: '/p', cwd: '/p', mode: 'plan', headless: true, callId: 'r1' }, decision: { behavior: 'deny', reason: 'plan mode is read-only', layer: 'mode' } }));
    t.handle(b(end(call('r1', 'Bash', { command: 'rm -rf build' }), 'denied', true)));
    t.handle(a(stop(1000)));
    t.handle(b(stop(200)));
    t.handle(b({ type: 'notice', level: 'warn', message: 'stopped after 1 model turns' }));
    t.handle(b(done('max_turns', 1)));
    t.handle(a(done('completed', 2)));
    expect(committed).toEqual([]);
    // B's Task ends first; each block holds only its own agent's calls.
    t.handle(end(taskB, 'partial report'));
    t.handle(end(taskA, 'a.js:2 divides by zero'));
    expect(committed).toEqual([
      '● Task general: review b.js (1 tool use · 250 tokens · 2.5s)',
      '  ● Bash rm -rf build (denied: plan mode is read-only)',
      '  ⎿ Stopped at its turn limit (1 turn); partial results returned',
      '● Task general: review a.js (1 tool use · 1.1k tokens · 2.5s)',
      '  ● Read a.js (3 lines)',
      '  ⎿ Done (2 turns)',
    ]);
    // Sub-agents' usage counts toward /cost under their model.
    expect(t.usageByModel.get('sub-model')).toEqual({ inputTokens: 1200, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 });
    // The Task call's details hold the whole report.
    expect(t.details(1)).toContain('  a.js:2 divides by zero');
  });

  it('nests a sub-agent of a sub-agent one level deeper, and folds long runs of calls', () => {
    const { t, committed } = transcript();
    const outer = from('nester-1', 'tA');
    const inner = from('general-2', 'tInner');
    const innerTask = call('tInner', 'Task', { description: 'look deeper', prompt: 'Look deeper' });
    t.handle({ type: 'tool_start', call: taskA, summary: 'nester: review a.js' });
    t.handle(outer({ type: 'tool_start', call: innerTask, summary: 'general: look deeper' }));
    for (let i = 1; i <= 10; i++) for (const e of ran(call(`g${i}`, 'Read', { file_path: `f${i}.js` }), 'x', { metadata: { lines: i } })) t.handle(inner(e));
    t.handle(inner(done('completed', 3)));
    t.handle(outer(end(innerTask, 'inner report')));
    t.handle(outer(done('aborted', 1)));
    t.handle(end(taskA, 'outer report'));
    expect(committed).toEqual([
      '● Task nester: review a.js (1 tool use · 0 tokens · 2.5s)',
      '  ● Task general: look deeper (10 tool uses · 0 tokens · 2.5s)',
      '    … +2 earlier tool uses',
      ...Array.from({ length: 8 }, (_, i) => `    ● Read f${i + 3}.js (${i + 3} lines)`),
      '    ⎿ Done (3 turns)',
      '  ⎿ Interrupted',
    ]);
  });
});

describe('screen', () => {
  it('writes finished lines once above a live area it redraws in place, never taller than the terminal', async () => {
    let written = '';
    let live = ['status'];
    const out = { columns: 40, rows: 6, write: (d: string) => (written += d) };
    const screen = new Screen(out, () => ({ lines: live }), 1);
    screen.commit(['first']);
    screen.draw();
    expect(stripAnsi(written)).toContain('first\r\nstatus');
    written = '';
    live = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    screen.draw();
    expect(written).not.toContain('first');
    expect(stripAnsi(written).replace(/\r(?!\n)/g, '').split('\r\n')).toEqual(['d', 'e', 'f', 'g', 'h']);
    written = '';
    screen.draw(); // nothing changed: nothing written
    expect(written).toBe('');
    screen.commit(['x'.repeat(100)]);
    screen.draw();
    for (const line of stripAnsi(written).split('\r\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(39);
  });
});
