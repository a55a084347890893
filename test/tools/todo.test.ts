import { afterEach, describe, expect, it } from 'vitest';
import { openSession, type ContextView, type Kernel, type SessionEvent } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { allowAll, inline, kernelFor, runOne, text } from './helpers.js';

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

const plan = [
  { id: '1', content: 'Read the parser', status: 'completed' },
  { id: '2', content: 'Fix the bug', status: 'in_progress' },
  { id: '3', content: 'Add a test', status: 'pending' },
];

function view(messages: ContextView['messages']): ContextView {
  return { system: [], messages, tools: [], cache: { system: false, messages: [] }, budget: { window: 1000, outputReserve: 100 }, model: 'm' };
}

describe('TodoWrite', () => {
  it('keeps the plan in the plugin without a session, per session, and shows it with /todos', async () => {
    ({ kernel } = await kernelFor(makeProject()));
    const result = await runOne(kernel, 'TodoWrite', { todos: plan }, { sessionId: 'a' });
    expect(text(result)).toBe('Plan updated (1 of 3 done):\n[x] Read the parser\n[~] Fix the bug\n[ ] Add a test');
    expect(result.metadata?.todos).toEqual(plan);
    kernel.hooks.commands.call(kernel.commands);
    const printed: string[] = [];
    const slash = kernel.commands.slash('todos')!;
    expect(await slash.run('', { print: (t) => printed.push(t), sessionId: 'a' })).toContain('[~] Fix the bug');
    expect(await slash.run('', { print: (t) => printed.push(t), sessionId: 'b' })).toContain('No plan yet');
  });

  it('records the plan in the open session, so it is persisted', async () => {
    const persisted: SessionEvent[] = [];
    const store = inline('test-store', (k) => k.hooks.persist.tapPromise('test-store', async (event) => void persisted.push(event)));
    ({ kernel } = await kernelFor(makeProject(), [allowAll, store]));
    kernel.session = await openSession(kernel.hooks, { projectRoot: kernel.projectRoot, mode: 'default' });
    await runOne(kernel, 'TodoWrite', { todos: plan }, { sessionId: kernel.session.info.id });
    expect(kernel.session.todos).toEqual(plan);
    expect(persisted.filter((e) => e.type === 'todos')).toEqual([{ type: 'todos', todos: plan }]);
  });

  it('refuses duplicate ids and invalid statuses', async () => {
    ({ kernel } = await kernelFor(makeProject()));
    const dup = await runOne(kernel, 'TodoWrite', { todos: [plan[0], { ...plan[1], id: '1' }] });
    expect(text(dup)).toContain('Two items have the id "1"');
    const bad = await runOne(kernel, 'TodoWrite', { todos: [{ id: 'x', content: 'y', status: 'done' }] });
    expect(text(bad)).toContain('"todos.0.status" must be one of "pending", "in_progress", "completed"');
  });

  it('appends a reminder at the end of the view after tool results, leaving earlier messages untouched', async () => {
    ({ kernel } = await kernelFor(makeProject()));
    await runOne(kernel, 'TodoWrite', { todos: plan }, { sessionId: 's' });
    const history: ContextView['messages'] = [
      { role: 'user', content: [{ type: 'text', text: 'fix it' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'TodoWrite', input: {} }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'ok' }] }] },
    ];
    const after = await kernel.hooks.context.promise(view(history), { kind: 'turn', sessionId: 's' });
    expect(after.messages.slice(0, 3)).toEqual(history);
    expect(after.messages).toHaveLength(4);
    const reminder = after.messages[3]!;
    expect(reminder.meta).toEqual({ origin: 'reminder', tag: 'todo-reminder' });
    expect(reminder.content[0]).toMatchObject({ type: 'text' });
    expect((reminder.content[0] as { text: string }).text).toContain('[~] Fix the bug');
    // Not after a user message, and not once every item is done.
    const userLast = await kernel.hooks.context.promise(view(history.slice(0, 1)), { kind: 'turn', sessionId: 's' });
    expect(userLast.messages).toHaveLength(1);
    await runOne(kernel, 'TodoWrite', { todos: plan.map((t) => ({ ...t, status: 'completed' })) }, { sessionId: 's' });
    const done = await kernel.hooks.context.promise(view(history), { kind: 'turn', sessionId: 's' });
    expect(done.messages).toHaveLength(3);
  });
});
