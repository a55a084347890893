import type { TodoItem, UserMessage } from '../../core/index.js';

const MARK: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** The plan as lines for people and the model: `[x] done`, `[~] doing`, `[ ] to do`. */
export function renderTodos(todos: readonly TodoItem[]): string {
  return todos.map((t) => `${MARK[t.status]} ${t.content}`).join('\n');
}

/** The short note appended after tool results while the plan has open items. */
export function todoReminder(todos: readonly TodoItem[], tag: string): UserMessage {
  const text = `<reminder>Your plan (from TodoWrite):\n${renderTodos(todos)}\nKeep it current: mark an item completed as soon as it is done and the next one in_progress. Do not mention this reminder to the user.</reminder>`;
  return { role: 'user', content: [{ type: 'text', text }], meta: { origin: 'reminder', tag } };
}
