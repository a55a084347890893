import type * as acp from '@agentclientprotocol/sdk';
import type { Message, OriginEvent } from '../../core/index.js';
import { planOf, resultUpdate, toolCallFor, type CallScope } from './tool-calls.js';

/** Sends one `session/update`; the caller keeps them in order. */
export type SendUpdate = (update: acp.SessionUpdate) => void;

const text = (value: string): acp.ContentBlock => ({ type: 'text', text: value });

/**
 * Turns the main agent's events into `session/update` notifications: message and thought chunks,
 * tool calls with their kind, files and diffs, their progress and results, and the plan when
 * TodoWrite changes it. A sub-agent's events stay inside its Task call.
 */
export function eventMapper(scope: CallScope, send: SendUpdate): (event: OriginEvent) => void {
  // The diffs a call proposed, kept on screen when its result comes in.
  const diffs = new Map<string, acp.ToolCallContent[]>();
  return (event) => {
    if (event.agentId) return;
    if (event.type === 'model') {
      const e = event.event;
      if (e.type === 'text_delta') send({ sessionUpdate: 'agent_message_chunk', content: text(e.text) });
      else if (e.type === 'thinking_delta') send({ sessionUpdate: 'agent_thought_chunk', content: text(e.text) });
      else if (e.type === 'tool_call_end') {
        const call = toolCallFor({ type: 'tool_call', id: e.id, name: e.name, input: e.input }, scope);
        diffs.set(e.id, (call.content ?? []).filter((c) => c.type === 'diff'));
        send({ sessionUpdate: 'tool_call', ...call });
      }
    } else if (event.type === 'tool_start') send({ sessionUpdate: 'tool_call_update', toolCallId: event.call.id, status: 'in_progress' });
    else if (event.type === 'permission' && event.decision.behavior === 'deny' && event.request.callId)
      send({ sessionUpdate: 'tool_call_update', toolCallId: event.request.callId, status: 'failed', content: [{ type: 'content', content: text(`denied: ${event.decision.reason}`) }] });
    else if (event.type === 'tool_end') {
      send({ sessionUpdate: 'tool_call_update', ...resultUpdate(event.result, diffs.get(event.call.id)) });
      diffs.delete(event.call.id);
      if (event.call.name === 'TodoWrite' && !event.result.isError) {
        const plan = planOf(event.call.input);
        if (plan) send({ sessionUpdate: 'plan', ...plan });
      }
    }
  };
}

/** The whole history as updates, for `session/load`: what the person typed, the replies, each tool call and its result. */
export function historyUpdates(messages: readonly Message[], scope: CallScope): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  const calls = new Map<string, acp.ToolCallContent[]>();
  for (const message of messages) {
    if (message.role === 'user') {
      // Reminders, summaries and notes the agent added are not the person's words.
      if (message.meta?.origin && message.meta.origin !== 'user' && message.meta.origin !== 'steering') continue;
      for (const part of message.content) if (part.type === 'text') updates.push({ sessionUpdate: 'user_message_chunk', content: text(part.text) });
    } else if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'text') updates.push({ sessionUpdate: 'agent_message_chunk', content: text(part.text) });
        else if (part.type === 'thinking' && !part.redacted && part.text) updates.push({ sessionUpdate: 'agent_thought_chunk', content: text(part.text) });
        else if (part.type === 'tool_call') {
          const call = toolCallFor(part, scope, 'in_progress');
          calls.set(part.id, (call.content ?? []).filter((c) => c.type === 'diff'));
          updates.push({ sessionUpdate: 'tool_call', ...call });
          if (part.name === 'TodoWrite') {
            const plan = planOf(part.input);
            if (plan) updates.push({ sessionUpdate: 'plan', ...plan });
          }
        }
      }
    } else for (const result of message.content) updates.push({ sessionUpdate: 'tool_call_update', ...resultUpdate(result, calls.get(result.toolCallId)) });
  }
  return updates;
}
