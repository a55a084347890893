import { readFileSync } from 'node:fs';
import { definePlugin, errorResult, Stage, textResult, type Json, type Message, type TodoItem } from '../../core/index.js';
import { renderTodos, todoReminder } from './render.js';

/** Marks the reminder this plugin appends, so it can be recognised. */
export const REMINDER_TAG = 'todo-reminder';

export default definePlugin({
  name: 'tool-todo',
  version: '1.0.0',
  apply(kernel) {
    // Plans of sub-agents, and of the main agent when no session is open (tests, embedders).
    const local = new Map<string, TodoItem[]>();
    const key = (sessionId?: string, agentId?: string) => `${sessionId ?? ''}\0${agentId ?? ''}`;
    const usesSession = (agentId?: string) => !agentId && kernel.session !== undefined;
    const todosOf = (sessionId?: string, agentId?: string): readonly TodoItem[] =>
      usesSession(agentId) ? kernel.session!.todos : (local.get(key(sessionId, agentId)) ?? []);

    kernel.tools.register({
      name: 'TodoWrite',
      description: readFileSync(new URL('./todo-write.txt', import.meta.url), 'utf8').trim(),
      inputSchema: {
        type: 'object',
        properties: {
          todos: {
            type: 'array',
            description: 'The whole updated list.',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string', minLength: 1 },
                content: { type: 'string', minLength: 1 },
                status: { enum: ['pending', 'in_progress', 'completed'] },
              },
              required: ['id', 'content', 'status'],
              additionalProperties: false,
            },
          },
        },
        required: ['todos'],
        additionalProperties: false,
      },
      // Its only resource is the plan itself: other tools run alongside, two TodoWrites keep their order.
      access: () => ({ reads: [], writes: ['@todos'] }),
      risk: { category: 'state' },
      summarize: (input) => `${(input.todos as unknown[] | undefined)?.length ?? 0} items`,
      async handler(input, context) {
        const todos = (input.todos as TodoItem[]).map(({ id, content, status }) => ({ id, content, status }));
        const ids = new Set<string>();
        for (const todo of todos) {
          if (ids.has(todo.id)) return errorResult('ASSISTANT_TOOL_INPUT_INVALID', `Two items have the id "${todo.id}"; give every item its own id.`);
          ids.add(todo.id);
        }
        if (usesSession(context.agentId)) await kernel.session!.record({ type: 'todos', todos });
        else local.set(key(context.sessionId, context.agentId), todos);
        const open = todos.filter((t) => t.status !== 'completed').length;
        return textResult(`Plan updated (${todos.length - open} of ${todos.length} done):\n${renderTodos(todos)}`, {
          todos: todos as unknown as Json,
        });
      },
    });

    // After tool calls, remind the model of its open plan at the very end of the view: earlier
    // messages stay byte-identical, so the provider's prompt cache still holds. Last stage, so the
    // context strategy (rolling, compaction) has shaped the view before the reminder is added.
    kernel.hooks.context.tapPromise({ name: 'tool-todo', stage: Stage.LAST }, async (view, reason) => {
      const last: Message | undefined = view.messages[view.messages.length - 1];
      if (reason.kind !== 'turn' || last?.role !== 'tool') return view;
      const todos = todosOf(reason.sessionId, reason.agentId);
      if (!todos.some((t) => t.status !== 'completed')) return view;
      return { ...view, messages: [...view.messages, todoReminder(todos, REMINDER_TAG)] };
    });

    kernel.hooks.commands.tap('tool-todo', (registry) => {
      registry.addSlash({
        name: 'todos',
        description: "Show the agent's current plan",
        run: (_args, context) => {
          const todos = todosOf(context.sessionId);
          return todos.length ? renderTodos(todos) : 'No plan yet: the agent makes one with TodoWrite for multi-step tasks.';
        },
      });
    });
  },
});
