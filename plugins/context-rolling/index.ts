import {
  ContextError,
  definePlugin,
  messageText,
  type ContextView,
  type Message,
  type UserMessage,
} from '../../core/index.js';
import {
  contextNotice,
  createCacheBreakpointPlanner,
  nextTurnBoundary,
  previousTurnBoundary,
  tapContextStrategy,
} from '../../core/kits/context/index.js';

interface Options {
  /** Most messages kept in the window. */
  maxMessages?: number;
  /** How many of the oldest messages are rotated out at once; the prefix stays byte-identical between rotations. */
  rotationInterval?: number;
  /** Share of the window the request may use before more blocks are rotated out. */
  threshold?: number;
  /** Keep the session's first user message (the task) in the note that replaces rotated messages. */
  keepFirstPrompt?: boolean;
}

/** Where the window starts in one conversation, and the message that was there (to notice a replaced history). */
interface WindowState {
  start: number;
  anchor: Message | undefined;
  note: UserMessage;
}

const FIRST_PROMPT_CHARS = 4000;

function rotationNote(first: Message | undefined, keepFirstPrompt: boolean): UserMessage {
  const task = keepFirstPrompt && first?.role === 'user' ? messageText(first).slice(0, FIRST_PROMPT_CHARS) : '';
  const text =
    '[Older messages of this conversation were rotated out of the context window to keep it within budget.' +
    (task ? ` The conversation began with this request from the user:]\n\n${task}` : ']');
  return { role: 'user', content: [{ type: 'text', text }], meta: { origin: 'system-note', tag: 'context-rolling' } };
}

/**
 * The rolling strategy: a sliding window over the history. When `maxMessages` is reached the
 * oldest block of `rotationInterval` messages is rotated out (more blocks when the request would
 * pass the token threshold), cut only at turn boundaries. Between rotations the request only grows
 * at its end, so the whole kept prefix is served from the prompt cache.
 */
export default definePlugin<Options>({
  name: 'context-rolling',
  version: '1.0.0',
  configKey: 'context.rolling',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      maxMessages: { type: 'integer', minimum: 4, default: 200 },
      rotationInterval: { type: 'integer', minimum: 1, default: 50 },
      threshold: { type: 'number', minimum: 0.1, maximum: 0.95, default: 0.8 },
      keepFirstPrompt: { type: 'boolean', default: true },
    },
  },
  apply(kernel, options) {
    const maxMessages = options.maxMessages ?? 200;
    const interval = Math.min(options.rotationInterval ?? 50, maxMessages);
    const threshold = options.threshold ?? 0.8;
    const planner = createCacheBreakpointPlanner();
    const windows = new Map<string | undefined, WindowState>();

    const viewFrom = (view: ContextView, state: WindowState, start: number): ContextView => ({
      ...view,
      messages: start > 0 ? [state.note, ...view.messages.slice(start)] : view.messages,
    });

    tapContextStrategy(kernel, 'rolling', async (view, reason) => {
      const history = view.messages;
      let state = windows.get(reason.agentId);
      if (!state || state.start > history.length || history[state.start] !== state.anchor)
        state = { start: 0, anchor: history[0], note: rotationNote(history[0], options.keepFirstPrompt ?? true) };
      const lastTurn = previousTurnBoundary(history, history.length - 1);
      const rotate = (from: number) => Math.min(nextTurnBoundary(history, from + interval), lastTurn);

      let start = state.start;
      while (history.length - start > maxMessages && start < lastTurn) start = rotate(start);
      if (reason.kind === 'compact' && start < lastTurn) start = rotate(start);
      const limit = Math.min(threshold * view.budget.window, view.budget.window - view.budget.outputReserve);
      // Rotate while over the threshold, or while the estimate margin leaves no room for the output reserve.
      const tooLarge = (at: number) => {
        const m = kernel.budget.measure(viewFrom(view, state, at));
        return m.total > limit || m.free < 0;
      };
      while (start < lastTurn && tooLarge(start)) start = rotate(start);

      const result = viewFrom(view, state, start);
      const measure = kernel.budget.measure(result);
      if (measure.free < 0)
        throw new ContextError(
          'ASSISTANT_CONTEXT_OVERFLOW',
          `even the latest turn alone needs about ${measure.total} input tokens, more than ${view.model} allows besides its output reserve and estimate margin ` +
            `(${measure.window - measure.outputReserve - measure.margin}); nothing was sent. Start a new session, or ask for smaller tool outputs`,
          { plugin: 'context-rolling' },
        );
      if (start !== state.start)
        contextNotice(kernel, reason, 'info', `rolled ${start - state.start} older messages out of the context window (now ${measure.total} tokens)`);
      windows.set(reason.agentId, { ...state, start, anchor: history[start] });
      return { ...result, cache: planner.place(result.messages, reason.agentId) };
    });
  },
});
