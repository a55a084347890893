import { lazyImport, Stage, type Kernel, type ToolCallPart } from '../../core/index.js';
import type { RecordingEntry } from './recording.js';

/** Request digests and the stored format, imported by the first request recorded: a run without `--record` never loads them. */
const digests = lazyImport('replay', 'request digests', () => import('./digest.js'));
const format = lazyImport('replay', 'recording format', () => import('./recording.js'));

/**
 * Records what a replay needs into the session's `recording` channel: prompts as given, each model
 * request (as a digest) and its answer, each tool call's input and result, how each prompt ended.
 * Entries are buffered from the (sync) event hook and written at checkpoints.
 */
export function installRecorder(kernel: Kernel): void {
  const buffers = new Map<string, RecordingEntry[]>();
  const seen = new Map<string, Set<string>>();
  const calls = new Map<string, ToolCallPart>();
  const durations = new Map<string, number>();
  let requests = 0;
  let answers = 0;
  const push = (sessionId: string | undefined, entry: RecordingEntry) => {
    if (sessionId) buffers.set(sessionId, [...(buffers.get(sessionId) ?? []), entry]);
  };

  kernel.hooks.userPrompt.tapPromise({ name: 'replay', stage: Stage.FIRST }, async (message, turn) => {
    if (!turn.agentId) push(turn.sessionId, { kind: 'prompt', time: Date.now(), message: structuredClone(message) });
    return message;
  });
  kernel.hooks.providerRequest.tapPromise({ name: 'replay', stage: Stage.RECORD }, async (request) => {
    const sessionId = kernel.session?.info.id;
    if (!sessionId) return request;
    const { digestOf, messageHash } = await digests();
    const known = seen.get(sessionId) ?? seen.set(sessionId, new Set()).get(sessionId)!;
    const added = request.messages.filter((m) => !known.has(messageHash(m)));
    for (const m of added) known.add(messageHash(m));
    requests++;
    push(sessionId, { kind: 'request', time: Date.now(), digest: digestOf(request), added: structuredClone(added) });
    return request;
  });
  kernel.hooks.event.tap('replay', (event) => {
    const base = { time: Date.now(), ...(event.agentId ? { agentId: event.agentId } : {}) };
    if (event.type === 'model' && event.event.type === 'stop') {
      answers++;
      push(event.sessionId, { kind: 'response', ...base, reason: event.event.reason, message: structuredClone(event.event.message), usage: { ...event.event.usage } });
    } else if (event.type === 'tool_end') {
      durations.set(event.call.id, event.durationMs);
    } else if (event.type === 'notice' && event.level === 'error' && requests > answers) {
      // The model request failed (or the stream broke): replay fails it the same way.
      answers = requests;
      push(event.sessionId, { kind: 'error', ...base, message: event.message, code: event.code });
    } else if (event.type === 'done' && !event.agentId) {
      push(event.sessionId, { kind: 'done', time: base.time, reason: event.reason, turns: event.turns });
    }
  });

  const flush = async (sessionId: string) => {
    if (!buffers.get(sessionId)?.length) return;
    const { asJson } = await format();
    // Taken after the import: entries pushed meanwhile go too, and a failed import leaves them buffered.
    const entries = buffers.get(sessionId);
    if (!entries?.length) return;
    buffers.delete(sessionId);
    await kernel.store().appendRecords(sessionId, 'recording', asJson(entries));
  };
  kernel.hooks.sessionEvent.tapPromise('replay', async (event, info) => {
    // Tool results as the model saw them (denied and failed calls included), with the calls that asked for them.
    if (event.type === 'message' && event.message.role === 'assistant')
      for (const part of event.message.content) if (part.type === 'tool_call') calls.set(part.id, part);
    if (event.type === 'message' && event.message.role === 'tool')
      for (const result of event.message.content) {
        const call = calls.get(result.toolCallId);
        if (!call) continue;
        calls.delete(result.toolCallId);
        push(info.id, { kind: 'tool', time: Date.now(), call: structuredClone(call), result: structuredClone(result), durationMs: durations.get(call.id) ?? 0 });
        durations.delete(call.id);
      }
    if (event.type === 'checkpoint') await flush(info.id);
  });
  kernel.hooks.shutdown.tapPromise({ name: 'replay', stage: Stage.FLUSH }, async () => {
    for (const sessionId of [...buffers.keys()]) await flush(sessionId);
  });
}
