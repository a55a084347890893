// Fixture loading and turn selection: which scripted reply (and which fault) answers a request.
import { readFileSync } from 'node:fs';
import type { BarrierSpec } from './barrier.js';

/** A tool call the scripted model makes. */
export interface ToolCallSpec {
  /** The call id; default `toolu_<turn>_<n>` (Anthropic) or `call_<turn>_<n>` (OpenAI). Give one to match on it with `toolResultFor`. */
  id?: string;
  /** The tool's name. */
  name: string;
  /** The tool's input (default `{}`). */
  input?: Record<string, unknown>;
}

/** One block of a scripted reply, for replies that need an order other than thinking → text → tool calls. */
export type ContentSpec =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'redacted_thinking'; data: string }
  | ({ type: 'tool_call' } & ToolCallSpec);

/** What the scripted model answers. The shorthand keys are emitted as thinking, redacted thinking, text, tool calls. */
export interface ReplySpec {
  /** Visible reasoning (Anthropic thinking block with a signature; OpenAI `reasoning_content`). */
  thinking?: string;
  /** An Anthropic redacted_thinking block's opaque data. */
  redactedThinking?: string;
  /** The reply's text. */
  text?: string;
  /** Tool calls; several in one reply are parallel calls. */
  toolCalls?: ToolCallSpec[];
  /** The blocks in any order (instead of the shorthand keys). */
  content?: ContentSpec[];
  /** The stop reason; default `tool_use` when there are tool calls, else `end_turn`. */
  stopReason?: string;
  /** Overrides the output token count in usage. */
  outputTokens?: number;
  /** Characters per streamed text or JSON delta for this reply. */
  chunkSize?: number;
  /** Pause after each streamed event of this reply. */
  eventDelayMs?: number;
}

/** A fault injected into one request instead of (or in the middle of) its reply. */
export type FaultSpec =
  | { status: number; message?: string; retryAfter?: number; retryAfterMs?: number; errorType?: string }
  | { type: 'slow_first_byte'; delayMs: number }
  | { type: 'stall_after_headers'; afterEvents?: number }
  | { type: 'reset_before_headers' }
  | { type: 'reset_mid_stream'; afterEvents?: number }
  | { type: 'malformed_sse'; afterEvents?: number }
  | { type: 'error_event'; afterEvents?: number; errorType?: string; message?: string }
  | { type: 'truncate_tool_input'; keepChars?: number };

/** Conditions a request must meet for a turn to answer it (substring matches; all given must hold). */
export interface MatchSpec {
  /** The wire format the request came in. */
  provider?: 'anthropic' | 'openai';
  /** The request's model, exactly. */
  model?: string;
  /** The last message's text (tool results included) contains this. */
  contains?: string;
  /** The latest user-typed text contains this. */
  userText?: string;
  /** The last message holds a tool result for this call id. */
  toolResultFor?: string;
  /** A tool result in the last message contains this. */
  toolResultContains?: string;
  /** The system prompt contains this. */
  systemContains?: string;
  /** A tool of this name is offered. */
  hasTool?: string;
  /** The request is (`true`) or is not (`false`) streamed. */
  stream?: boolean;
}

/** One scripted turn of the model. */
export interface TurnSpec {
  /** Shown in the request log (default `turn N`). */
  name?: string;
  /** When this turn may answer; absent: any request. */
  when?: MatchSpec;
  /** Faults injected first, one per request; the turn answers once they are used up. */
  faults?: FaultSpec[];
  /** The reply. */
  reply: ReplySpec;
  /** How many requests this turn answers (default 1; 0 = unlimited). */
  times?: number;
  /** Hold each request until enough wait together: proof the client sent them concurrently. */
  barrier?: BarrierSpec;
}

/** The script of the fake model (see the fake-llm README for the full format). */
export interface Fixture {
  /** Known models; others get the provider's 404 "unknown model" error. */
  models?: string[];
  /** Require this API key, else 401. */
  apiKey?: string;
  /** Characters per streamed text or JSON delta (default 8). */
  chunkSize?: number;
  /** Pause after each streamed event. */
  eventDelayMs?: number;
  /** Prompt-cache accounting parameters. */
  cache?: PromptCacheOptions;
  /** The turns, tried in order for each request. */
  turns?: TurnSpec[];
  /** The reply when no turn matches; without it such a request gets a 500 saying so. */
  fallback?: ReplySpec;
}

/** Prompt-cache accounting parameters of a fixture. */
export interface PromptCacheOptions {
  /** Cache lifetime, refreshed by every read (default 5 minutes). */
  ttlMs?: number;
  /** Minimum cacheable prefix by model-name substring, plus `default`. */
  minTokens?: Record<string, number>;
  /** Block boundaries before a breakpoint checked for an earlier cached prefix (default 20). */
  lookbackBlocks?: number;
}

/** A message of a request in neutral form, whichever wire format it came in. */
export interface NeutralMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  toolResults: { id: string; text: string; isError: boolean }[];
  toolCalls: { id: string; name: string; input: unknown }[];
}

/** A request in neutral form, for matching turns. */
export interface NeutralRequest {
  provider: 'anthropic' | 'openai';
  model: string;
  stream: boolean;
  system: string;
  messages: NeutralMessage[];
  tools: string[];
}

/** Reads and checks a fixture file. */
export function readFixture(path: string): Fixture {
  const text = readFileSync(path, 'utf8');
  try {
    return checkFixture(JSON.parse(text));
  } catch (error) {
    throw new Error(`fixture ${path}: ${(error as Error).message}`);
  }
}

const FAULT_TYPES = new Set(['slow_first_byte', 'stall_after_headers', 'reset_before_headers', 'reset_mid_stream', 'malformed_sse', 'error_event', 'truncate_tool_input']);

/** Catches fixture typos early, with the path of the bad entry. */
export function checkFixture(fixture: unknown): Fixture {
  if (!fixture || typeof fixture !== 'object' || Array.isArray(fixture)) throw new Error('a fixture must be a JSON object');
  const turns: unknown = (fixture as Fixture).turns ?? [];
  if (!Array.isArray(turns)) throw new Error('/turns must be an array');
  turns.forEach((turn: { reply?: unknown; faults?: Array<{ status?: unknown; type?: string }>; barrier?: Partial<BarrierSpec> } | null, i) => {
    if (!turn || typeof turn.reply !== 'object') throw new Error(`/turns/${i}/reply is missing`);
    const barrier = turn.barrier;
    if (barrier !== undefined && (typeof barrier?.name !== 'string' || !Number.isInteger(barrier.parties) || barrier.parties! < 1))
      throw new Error(`/turns/${i}/barrier: needs "name" (a string) and "parties" (an integer of at least 1)`);
    (turn.faults ?? []).forEach((fault, j) => {
      if (typeof fault.status !== 'number' && !FAULT_TYPES.has(fault.type ?? ''))
        throw new Error(`/turns/${i}/faults/${j}: needs "status" or a "type" among ${[...FAULT_TYPES].join(', ')}`);
    });
  });
  return fixture as Fixture;
}

/** The content blocks of a reply, in order, with tool call ids filled in. */
export function replyContent(reply: ReplySpec, idPrefix: string): ContentSpec[] {
  const content: ContentSpec[] = reply.content
    ? structuredClone(reply.content)
    : [
        ...(reply.thinking !== undefined ? [{ type: 'thinking' as const, text: reply.thinking }] : []),
        ...(reply.redactedThinking !== undefined ? [{ type: 'redacted_thinking' as const, data: reply.redactedThinking }] : []),
        ...(reply.text !== undefined ? [{ type: 'text' as const, text: reply.text }] : []),
        ...(reply.toolCalls ?? []).map((call) => ({ type: 'tool_call' as const, ...call })),
      ];
  let n = 0;
  for (const block of content) if (block.type === 'tool_call') block.id ??= `${idPrefix}_${++n}`;
  return content;
}

function matches(when: MatchSpec | undefined, request: NeutralRequest): boolean {
  if (!when) return true;
  const last = request.messages[request.messages.length - 1];
  const lastText = last ? [last.text, ...last.toolResults.map((r) => r.text)].join('\n') : '';
  const userTexts = request.messages.filter((m) => m.role === 'user' && m.text);
  const lastUser = userTexts[userTexts.length - 1]?.text ?? '';
  if (when.provider && when.provider !== request.provider) return false;
  if (when.model && when.model !== request.model) return false;
  if (when.stream !== undefined && when.stream !== request.stream) return false;
  if (when.contains !== undefined && !lastText.includes(when.contains)) return false;
  if (when.userText !== undefined && !lastUser.includes(when.userText)) return false;
  if (when.toolResultFor !== undefined && !last?.toolResults.some((r) => r.id === when.toolResultFor)) return false;
  const resultText = when.toolResultContains;
  if (resultText !== undefined && !last?.toolResults.some((r) => r.text.includes(resultText))) return false;
  if (when.systemContains !== undefined && !request.system.includes(when.systemContains)) return false;
  if (when.hasTool !== undefined && !request.tools.includes(when.hasTool)) return false;
  return true;
}

/** A turn of the running script: how often it has answered, how many of its faults have fired. */
export interface TurnState {
  spec: TurnSpec;
  index: number;
  answered: number;
  faultsFired: number;
}

/** The turn picked for a request, with its reply and the fault to inject (if any). */
export interface PickedTurn {
  turn?: TurnState;
  reply?: ReplySpec;
  fault?: FaultSpec;
  label: string;
}

/** The running state of one fixture: which turns have answered, which faults have fired. */
export class Script {
  readonly fixture: Fixture;
  readonly turns: TurnState[];

  constructor(fixture: Fixture) {
    this.fixture = checkFixture(fixture);
    this.turns = (fixture.turns ?? []).map((spec, index) => ({ spec, index, answered: 0, faultsFired: 0 }));
  }

  /**
   * Picks the turn for a request: the first one, in fixture order, that still has answers left and
   * whose `when` matches. Its next unfired fault comes with it.
   */
  pick(request: NeutralRequest): PickedTurn {
    for (const turn of this.turns) {
      const times = turn.spec.times ?? 1;
      if (times !== 0 && turn.answered >= times) continue;
      if (!matches(turn.spec.when, request)) continue;
      const fault = turn.spec.faults?.[turn.faultsFired];
      if (fault) turn.faultsFired++;
      return { turn, reply: turn.spec.reply, fault, label: turn.spec.name ?? `turn ${turn.index}` };
    }
    if (this.fixture.fallback) return { reply: this.fixture.fallback, label: 'fallback' };
    return { label: 'none' };
  }
}
