// Written with the test kit plugin authors use (assistant/testing), so the kit stays honest.
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextView } from '../../dist/core/index.js';
import { createTestKernel, resultText as text, type TestKernel } from '../../dist/config/test-kit.js';
import { allowAll } from './helpers.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The todo plugin alone, with a policy that allows every call. */
const todoKernel = () => createTestKernel({ builtins: ['tool-todo'], plugins: [allowAll] });

const plan = [
  { id: '1', content: 'Read the parser', status: 'completed' },
  { id: '2', content: 'Fix the bug', status: 'in_progress' },
  { id: '3', content: 'Add a test', status: 'pending' },
];

function view(messages: ContextView['messages']): ContextView {
  return { system: [], messages, tools: [], cache: { system: false, messages: [] }, budget: { window: 200_000, outputReserve: 8_000 }, model: 'm' };
}

describe('TodoWrite', () => {
  it("keeps the session's plan apart from a sub-agent's, and shows it with /todos", async () => {
    t = await todoKernel();
    const { kernel } = t;
    const sessionId = (await t.session()).info.id;
    kernel.hooks.commands.call(kernel.commands);
    const printed: string[] = [];
    const slash = kernel.commands.slash('todos')!;
    expect(await slash.run('', { print: (line) => printed.push(line), sessionId })).toContain('No plan yet');
    const result = await t.callTool('TodoWrite', { todos: plan });
    expect(text(result)).toBe('Plan updated (1 of 3 done):\n[x] Read the parser\n[~] Fix the bug\n[ ] Add a test');
    expect(result.metadata?.todos).toEqual(plan);
    expect(await slash.run('', { print: (line) => printed.push(line), sessionId })).toContain('[~] Fix the bug');
    const sub = await t.callTool('TodoWrite', { todos: [{ id: 's', content: 'Sub-task', status: 'pending' }] }, { agentId: 'explorer' });
    expect(text(sub)).toContain('[ ] Sub-task');
    expect((await t.session()).todos).toEqual(plan);
    expect(await slash.run('', { print: (line) => printed.push(line), sessionId })).not.toContain('Sub-task');
  });

  it('records the plan in the open session, so it is persisted', async () => {
    t = await todoKernel();
    await t.callTool('TodoWrite', { todos: plan });
    expect((await t.session()).todos).toEqual(plan);
    const persisted = t.hooks.calls('sessionEvent').map((call) => call.args[0]);
    expect(persisted.filter((e) => e.type === 'todos')).toEqual([{ type: 'todos', todos: plan }]);
  });

  it('refuses duplicate ids and invalid statuses', async () => {
    t = await todoKernel();
    const dup = await t.callTool('TodoWrite', { todos: [plan[0], { ...plan[1], id: '1' }] });
    expect(text(dup)).toContain('Two items have the id "1"');
    const bad = await t.callTool('TodoWrite', { todos: [{ id: 'x', content: 'y', status: 'done' }] });
    expect(text(bad)).toContain('"todos.0.status" must be one of "pending", "in_progress", "completed"');
  });

  it('appends a reminder at the end of the view after tool results, leaving earlier messages untouched', async () => {
    t = await todoKernel();
    const { kernel } = t;
    const s = (await t.session()).info.id;
    await t.callTool('TodoWrite', { todos: plan });
    const history: ContextView['messages'] = [
      { role: 'user', content: [{ type: 'text', text: 'fix it' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'TodoWrite', input: {} }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'ok' }] }] },
    ];
    const after = await kernel.hooks.context.promise(view(history), { kind: 'turn', sessionId: s });
    expect(after.messages.slice(0, 3)).toEqual(history);
    expect(after.messages).toHaveLength(4);
    const reminder = after.messages[3]!;
    expect(reminder.meta).toEqual({ origin: 'reminder', tag: 'todo-reminder' });
    expect(reminder.content[0]).toMatchObject({ type: 'text' });
    expect((reminder.content[0] as { text: string }).text).toContain('[~] Fix the bug');
    // Not after a user message, and not once every item is done.
    const userLast = await kernel.hooks.context.promise(view(history.slice(0, 1)), { kind: 'turn', sessionId: s });
    expect(userLast.messages).toHaveLength(1);
    await t.callTool('TodoWrite', { todos: plan.map((item) => ({ ...item, status: 'completed' })) });
    const done = await kernel.hooks.context.promise(view(history), { kind: 'turn', sessionId: s });
    expect(done.messages).toHaveLength(3);
  });
});
