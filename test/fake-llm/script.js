// Fixture loading and turn selection: which scripted reply (and which fault) answers a request.
import { readFileSync } from 'node:fs';

/**
 * @typedef {{ id?: string, name: string, input?: Record<string, unknown> }} ToolCallSpec
 * @typedef {{ type: 'text', text: string } | { type: 'thinking', text: string } | { type: 'redacted_thinking', data: string } | ({ type: 'tool_call' } & ToolCallSpec)} ContentSpec
 * @typedef {{ text?: string, thinking?: string, redactedThinking?: string, toolCalls?: ToolCallSpec[], content?: ContentSpec[],
 *   stopReason?: string, outputTokens?: number, chunkSize?: number, eventDelayMs?: number }} ReplySpec
 * @typedef {{ status: number, message?: string, retryAfter?: number, retryAfterMs?: number, errorType?: string }
 *   | { type: 'slow_first_byte', delayMs: number }
 *   | { type: 'stall_after_headers', afterEvents?: number }
 *   | { type: 'reset_before_headers' }
 *   | { type: 'reset_mid_stream', afterEvents?: number }
 *   | { type: 'malformed_sse', afterEvents?: number }
 *   | { type: 'error_event', afterEvents?: number, errorType?: string, message?: string }
 *   | { type: 'truncate_tool_input', keepChars?: number }} FaultSpec
 * @typedef {{ provider?: 'anthropic' | 'openai', model?: string, contains?: string, userText?: string, toolResultFor?: string,
 *   toolResultContains?: string, systemContains?: string, hasTool?: string, stream?: boolean }} MatchSpec
 * @typedef {{ name?: string, when?: MatchSpec, faults?: FaultSpec[], reply: ReplySpec, times?: number, barrier?: import('./barrier.js').BarrierSpec }} TurnSpec
 * @typedef {{ models?: string[], apiKey?: string, chunkSize?: number, eventDelayMs?: number,
 *   cache?: { ttlMs?: number, minTokens?: Record<string, number>, lookbackBlocks?: number },
 *   turns?: TurnSpec[], fallback?: ReplySpec }} Fixture
 */

/**
 * A request in neutral form, whichever wire format it came in.
 * @typedef {{ role: 'user' | 'assistant' | 'tool', text: string, toolResults: { id: string, text: string, isError: boolean }[],
 *   toolCalls: { id: string, name: string, input: unknown }[] }} NeutralMessage
 * @typedef {{ provider: 'anthropic' | 'openai', model: string, stream: boolean, system: string, messages: NeutralMessage[], tools: string[] }} NeutralRequest
 */

/** @param {string} path @returns {Fixture} */
export function readFixture(path) {
  const text = readFileSync(path, 'utf8');
  try {
    return checkFixture(JSON.parse(text));
  } catch (error) {
    throw new Error(`fixture ${path}: ${/** @type {Error} */ (error).message}`);
  }
}

const FAULT_TYPES = new Set(['slow_first_byte', 'stall_after_headers', 'reset_before_headers', 'reset_mid_stream', 'malformed_sse', 'error_event', 'truncate_tool_input']);

/** Catches fixture typos early, with the path of the bad entry. @param {any} fixture @returns {Fixture} */
export function checkFixture(fixture) {
  if (!fixture || typeof fixture !== 'object' || Array.isArray(fixture)) throw new Error('a fixture must be a JSON object');
  const turns = fixture.turns ?? [];
  if (!Array.isArray(turns)) throw new Error('/turns must be an array');
  turns.forEach((turn, i) => {
    if (!turn || typeof turn.reply !== 'object') throw new Error(`/turns/${i}/reply is missing`);
    const barrier = turn.barrier;
    if (barrier !== undefined && (typeof barrier?.name !== 'string' || !Number.isInteger(barrier.parties) || barrier.parties < 1))
      throw new Error(`/turns/${i}/barrier: needs "name" (a string) and "parties" (an integer of at least 1)`);
    (turn.faults ?? []).forEach((fault, j) => {
      if (typeof fault.status !== 'number' && !FAULT_TYPES.has(fault.type))
        throw new Error(`/turns/${i}/faults/${j}: needs "status" or a "type" among ${[...FAULT_TYPES].join(', ')}`);
    });
  });
  return fixture;
}

/**
 * The content blocks of a reply, in order, with tool call ids filled in.
 * @param {ReplySpec} reply @param {string} idPrefix @returns {ContentSpec[]}
 */
export function replyContent(reply, idPrefix) {
  /** @type {ContentSpec[]} */
  const content = reply.content
    ? structuredClone(reply.content)
    : [
        ...(reply.thinking !== undefined ? [{ type: /** @type {const} */ ('thinking'), text: reply.thinking }] : []),
        ...(reply.redactedThinking !== undefined ? [{ type: /** @type {const} */ ('redacted_thinking'), data: reply.redactedThinking }] : []),
        ...(reply.text !== undefined ? [{ type: /** @type {const} */ ('text'), text: reply.text }] : []),
        ...(reply.toolCalls ?? []).map((call) => ({ type: /** @type {const} */ ('tool_call'), ...call })),
      ];
  let n = 0;
  for (const block of content) if (block.type === 'tool_call') block.id ??= `${idPrefix}_${++n}`;
  return content;
}

/** @param {MatchSpec | undefined} when @param {NeutralRequest} request */
function matches(when, request) {
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
  if (when.toolResultContains !== undefined && !last?.toolResults.some((r) => r.text.includes(/** @type {string} */ (when.toolResultContains)))) return false;
  if (when.systemContains !== undefined && !request.system.includes(when.systemContains)) return false;
  if (when.hasTool !== undefined && !request.tools.includes(when.hasTool)) return false;
  return true;
}

/** The running state of one fixture: which turns have answered, which faults have fired. */
export class Script {
  /** @param {Fixture} fixture */
  constructor(fixture) {
    this.fixture = checkFixture(fixture);
    /** @type {{ spec: TurnSpec, index: number, answered: number, faultsFired: number }[]} */
    this.turns = (fixture.turns ?? []).map((spec, index) => ({ spec, index, answered: 0, faultsFired: 0 }));
  }

  /**
   * Picks the turn for a request: the first one, in fixture order, that still has answers left and
   * whose `when` matches. Its next unfired fault comes with it.
   * @param {NeutralRequest} request
   * @returns {{ turn?: { spec: TurnSpec, index: number, answered: number, faultsFired: number }, reply?: ReplySpec, fault?: FaultSpec, label: string }}
   */
  pick(request) {
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
