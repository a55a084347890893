/** What the page draws for one session, built from its stored history and then its event stream. */

export type Item =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; open: boolean }
  | { kind: 'thinking'; text: string; open: boolean }
  | { kind: 'tool'; id: string; name: string; input: Record<string, unknown>; status: 'called' | 'running' | 'done' | 'error' | 'denied'; output?: string }
  | { kind: 'notice'; level: string; text: string }
  | { kind: 'result'; reason: string; message?: string };

export interface Approval {
  approval_id: string;
  tool: string;
  input: Record<string, unknown>;
  reason: string;
  suggested_rule?: string;
  diff?: { path: string; partial?: boolean; hunks: Array<{ oldStart: number; newStart: number; lines: string[] }> };
}

export interface SessionModel {
  id: string;
  title?: string;
  model?: string;
  attached: boolean;
  busy: boolean;
  lostTo?: string;
  items: Item[];
  approvals: Approval[];
  todos: Array<{ id: string; content: string; status: string }>;
  context: { usage?: Record<string, number>; cost_usd?: number; context_tokens?: number; requests?: number; unpriced?: string[] };
  /** Where the current model turn's items start (a `retry` with `discard` drops them). */
  turnStart: number;
}

/** The model of a session as `GET /api/sessions/:id` returns it. */
export function fromView(view: any): SessionModel {
  const model: SessionModel = {
    id: view.id,
    title: view.title,
    model: view.model,
    attached: Boolean(view.attached),
    busy: Boolean(view.busy),
    lostTo: view.lost_to,
    items: [],
    approvals: view.approvals ?? [],
    todos: view.todos ?? [],
    context: view.context ?? {},
    turnStart: 0,
  };
  for (const message of view.messages ?? []) addMessage(model, message);
  model.turnStart = model.items.length;
  return model;
}

function addMessage(model: SessionModel, message: any): void {
  for (const part of message.content ?? []) {
    if (message.role === 'user' && part.type === 'text' && (!message.origin || message.origin === 'user')) model.items.push({ kind: 'user', text: part.text });
    else if (message.role === 'assistant' && part.type === 'text' && part.text) model.items.push({ kind: 'assistant', text: part.text, open: false });
    else if (message.role === 'assistant' && part.type === 'thinking' && part.text) model.items.push({ kind: 'thinking', text: part.text, open: false });
    else if (part.type === 'tool_call') model.items.push({ kind: 'tool', id: part.id, name: part.name, input: part.input, status: 'called' });
    else if (part.type === 'tool_result') updateTool(model, part.id, (t) => ({ ...t, status: part.is_error ? 'error' : 'done', output: part.text }));
  }
}

function updateTool(model: SessionModel, id: string, change: (item: Extract<Item, { kind: 'tool' }>) => Item): void {
  const index = model.items.findIndex((i) => i.kind === 'tool' && i.id === id);
  if (index >= 0) model.items[index] = change(model.items[index] as Extract<Item, { kind: 'tool' }>);
}

function closeOpen(model: SessionModel): void {
  model.items = model.items.map((i) => ((i.kind === 'assistant' || i.kind === 'thinking') && i.open ? { ...i, open: false } : i));
}

function appendText(model: SessionModel, kind: 'assistant' | 'thinking', text: string): void {
  const last = model.items[model.items.length - 1];
  if (last && last.kind === kind && last.open) model.items[model.items.length - 1] = { ...last, text: last.text + text };
  else model.items.push({ kind, text, open: true });
}

/** Applies one event of the stream; returns a new model (the page redraws what changed). */
export function applyEvent(previous: SessionModel, name: string, data: any): SessionModel {
  const model: SessionModel = { ...previous, items: [...previous.items] };
  switch (name) {
    case 'prompt':
      model.items.push({ kind: 'user', text: data.text });
      model.title ??= data.text.slice(0, 60);
      model.turnStart = model.items.length;
      return model;
    case 'approval_request':
      model.approvals = [...model.approvals.filter((a) => a.approval_id !== data.approval_id), data];
      return model;
    case 'approval_resolved':
      model.approvals = model.approvals.filter((a) => a.approval_id !== data.approval_id);
      return model;
    case 'todos':
      model.todos = data.todos;
      return model;
    case 'context':
      model.context = data;
      return model;
    case 'state':
      model.busy = Boolean(data.busy);
      return model;
    case 'lease_lost':
      model.lostTo = data.where;
      model.items.push({ kind: 'notice', level: 'warn', text: `This session moved to ${data.where}; this page no longer sends prompts to it.` });
      return model;
    case 'message':
      return data.agent_id ? previous : applyLine(model, data);
  }
  return previous;
}

/** A stream-json line of the main agent. */
function applyLine(model: SessionModel, line: any): SessionModel {
  switch (line.type) {
    case 'turn_start':
      closeOpen(model);
      model.turnStart = model.items.length;
      break;
    case 'text_delta':
      appendText(model, 'assistant', line.text);
      break;
    case 'thinking_delta':
      appendText(model, 'thinking', line.text);
      break;
    case 'retry':
      if (line.discard) model.items = model.items.slice(0, model.turnStart);
      break;
    case 'tool_call':
      closeOpen(model);
      model.items.push({ kind: 'tool', id: line.id, name: line.name, input: line.input, status: 'called' });
      break;
    case 'message_end':
      closeOpen(model);
      break;
    case 'permission':
      if (line.behavior === 'deny') updateTool(model, line.call_id, (t) => ({ ...t, status: 'denied', output: line.reason }));
      break;
    case 'tool_start':
      updateTool(model, line.id, (t) => ({ ...t, status: 'running' }));
      break;
    case 'tool_result':
      updateTool(model, line.id, (t) => ({ ...t, status: line.is_error ? (t.status === 'denied' ? 'denied' : 'error') : 'done', output: line.content.map((c: any) => c.text ?? `[${c.media_type}]`).join('\n') }));
      break;
    case 'notice':
      model.items.push({ kind: 'notice', level: line.level, text: line.message });
      break;
    case 'result':
      closeOpen(model);
      if (line.reason !== 'completed') model.items.push({ kind: 'result', reason: line.reason, message: line.message });
      break;
  }
  return model;
}
