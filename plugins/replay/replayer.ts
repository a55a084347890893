import {
  ProviderError,
  type AssistantMessage,
  type Kernel,
  type Message,
  type PermissionMode,
  type Provider,
  type ProviderStreamEvent,
  type ToolCallPart,
  type ToolResultPart,
} from '../../core/index.js';
import { memoryConversation, runAgentLoop } from '../../core/kits/agent/index.js';
import { compareDigests, digestOf, hashOf, messageHash } from './digest.js';
import type { RecordingEntry } from './recording.js';
import { REPLAY_ERRORS } from './errors.js';

/** How a replay runs. */
export interface ReplayOptions {
  /** `recorded`: tools answer from the recording; `live`: tools run again and their results are compared. */
  tools: 'recorded' | 'live';
  /** System-prompt sections whose changes are expected (dates, paths) and not reported. */
  ignoreSections: string[];
  /** The permission mode the session ran in. */
  mode: PermissionMode;
}

/** One place where the replay behaved differently from the recording. */
export interface Divergence {
  /** `model call 3`, `tool call call_1 (Bash)`, `prompt 2`. */
  at: string;
  detail: string;
}

/** What a replay found. */
export interface ReplayReport {
  sessionId: string;
  prompts: number;
  modelCalls: { recorded: number; replayed: number };
  toolCalls: { recorded: number; replayed: number; mode: 'recorded' | 'live' };
  divergences: Divergence[];
}

type Of<K extends RecordingEntry['kind']> = Extract<RecordingEntry, { kind: K }>;

/** The recorded answer as the stream a provider would have sent. */
function* streamOf(message: AssistantMessage, answer: Of<'response'>): Generator<ProviderStreamEvent> {
  yield { type: 'message_start', model: message.meta?.model ?? 'replay' };
  for (const part of message.content) {
    if (part.type === 'text') yield { type: 'text_delta', text: part.text };
    else if (part.type === 'thinking') yield { type: 'thinking_delta', text: part.text };
    else {
      yield { type: 'tool_call_start', id: part.id, name: part.name };
      yield { type: 'tool_call_end', id: part.id, name: part.name, input: part.input, ...(part.inputError ? { inputError: part.inputError } : {}) };
    }
  }
  yield { type: 'usage', usage: answer.usage };
  yield { type: 'stop', reason: answer.reason, message, usage: answer.usage };
}

const resultText = (r: ToolResultPart) => `${r.isError ? 'error: ' : ''}${r.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join(' ')}`;
const short = (text: string) => JSON.stringify(text.length > 100 ? `${text.slice(0, 99)}…` : text);

/**
 * Re-runs a recorded session offline: the recorded model answers are served in order by a local
 * provider, tools answer from the recording or run again, and every difference is reported —
 * in the requests the model would have seen, the tool results, and how each prompt ended.
 */
export async function replaySession(kernel: Kernel, sessionId: string, entries: RecordingEntry[], options: ReplayOptions): Promise<ReplayReport> {
  const of = <K extends RecordingEntry['kind']>(kind: K) => entries.filter((e): e is Of<K> => e.kind === kind);
  const prompts = of('prompt');
  const requests = of('request');
  const answers = entries.filter((e): e is Of<'response'> | Of<'error'> => e.kind === 'response' || e.kind === 'error');
  const tools = new Map(of('tool').map((t) => [t.call.id, t]));
  const outcomes = of('done');
  const byHash = new Map<string, Message>();
  for (const r of requests) for (const m of r.added) byHash.set(messageHash(m), m);
  const ignore = new Set(options.ignoreSections);
  const divergences: Divergence[] = [];
  const reported = new Set<string>();
  /** A difference carried into every later request is reported once, where it first appears. */
  const diverge = (at: string, detail: string, key = detail) => {
    if (reported.has(key)) return;
    reported.add(key);
    divergences.push({ at, detail });
  };
  let served = 0;
  let toolRuns = 0;

  const provider: Provider = {
    name: 'replay',
    capabilities: { images: true, thinking: true, promptCaching: true, parallelToolCalls: true },
    defaultModel: requests[0]?.digest.model ?? 'replay',
    async *stream(request) {
      const index = served++;
      const recorded = requests[index];
      if (recorded) for (const detail of compareDigests(recorded.digest, digestOf(request), byHash, request.messages, ignore)) diverge(`model call ${index + 1}`, detail);
      const answer = answers[index];
      if (!answer) throw new ProviderError(REPLAY_ERRORS.ASSISTANT_REPLAY_EXHAUSTED, `model call ${index + 1} has no recorded answer (the recording has ${answers.length})`);
      if (answer.kind === 'error') throw new ProviderError('ASSISTANT_PROVIDER_PROTOCOL', `(recorded failure) ${answer.message}`);
      yield* streamOf(answer.message, answer);
    },
    async complete(request) {
      let last: Extract<ProviderStreamEvent, { type: 'stop' }> | undefined;
      for await (const event of this.stream(request)) if (event.type === 'stop') last = event;
      return { message: last!.message, usage: last!.usage, stopReason: last!.reason };
    },
    countTokens: async () => 0,
    contextWindow: () => 1_000_000,
  };

  const recordedResult = (call: ToolCallPart): ToolResultPart => {
    const recorded = tools.get(call.id);
    if (recorded) return recorded.result;
    diverge(`tool call ${call.id} (${call.name})`, 'the recording has no result for this call');
    return { type: 'tool_result', toolCallId: call.id, isError: true, content: [{ type: 'text', text: 'replay: no recorded result' }] };
  };
  const replayKernel: Kernel = Object.create(kernel, {
    provider: { value: () => provider },
    runToolCalls: {
      value: async (calls: ToolCallPart[], context: Parameters<Kernel['runToolCalls']>[1]): Promise<ToolResultPart[]> => {
        toolRuns += calls.length;
        if (options.tools === 'recorded') return calls.map(recordedResult);
        let live: ToolResultPart[];
        try {
          live = await kernel.runToolCalls(calls, context);
        } catch (error) {
          diverge(`tool calls of model call ${served}`, `the tools could not run: ${(error as Error).message}`);
          return calls.map(recordedResult);
        }
        live.forEach((result, i) => {
          const recorded = tools.get(calls[i]!.id)?.result;
          if (recorded && hashOf({ c: recorded.content, e: Boolean(recorded.isError) }) !== hashOf({ c: result.content, e: Boolean(result.isError) }))
            diverge(`tool call ${calls[i]!.id} (${calls[i]!.name})`, `result differs: recorded ${short(resultText(recorded))}, now ${short(resultText(result))}`, calls[i]!.id);
        });
        return live;
      },
    },
  });

  const conversation = memoryConversation();
  const signal = new AbortController().signal;
  for (const [i, prompt] of prompts.entries()) {
    const result = await runAgentLoop(replayKernel, { conversation, prompt: prompt.message, signal, mode: options.mode, model: requests[0]?.digest.model });
    const recorded = outcomes[i];
    if (recorded && (recorded.reason !== result.reason || recorded.turns !== result.turns))
      diverge(`prompt ${i + 1}`, `ended ${result.reason} after ${result.turns} turns${result.message ? ` (${result.message})` : ''}; the recording ended ${recorded.reason} after ${recorded.turns}`);
  }
  if (served < requests.length) diverge('end', `the replay made ${served} model calls; the recording has ${requests.length}`);
  return {
    sessionId,
    prompts: prompts.length,
    modelCalls: { recorded: requests.length, replayed: served },
    toolCalls: { recorded: tools.size, replayed: toolRuns, mode: options.tools },
    divergences,
  };
}
