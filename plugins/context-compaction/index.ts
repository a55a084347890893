import {
  ConfigError,
  ContextError,
  definePlugin,
  messageText,
  type ContextMeasure,
  type ContextReason,
  type ContextView,
  type Message,
} from '../../core/index.js';
import {
  contextNotice,
  createCacheBreakpointPlanner,
  estimateMessageTokens,
  estimateParts,
  previousTurnBoundary,
  recentTurnsStart,
  tapContextStrategy,
} from '../../core/kits/context/index.js';
import { pruneToolOutputs, type PruneOptions } from './prune.js';
import { preservedUserTexts, requestSummary, summaryInstruction, summaryMessage } from './summarize.js';
import { COMPACTION_ERRORS } from './errors.js';
import { summaryPrefix, type SummaryPrefix } from './summary-prefix.js';

interface Options {
  /** Share of the window at which compaction starts. */
  threshold?: number;
  /** Share of the window a compaction aims to get under. */
  target?: number;
  /** Recent history kept word for word, in tokens (cut at turn boundaries). */
  keepRecentTokens?: number;
  /** Old tool outputs longer than this many characters are cut to head + tail. */
  truncateAbove?: number;
  headChars?: number;
  tailChars?: number;
  dropSupersededReads?: boolean;
  /** Output budget of the summary request. */
  summaryMaxTokens?: number;
}

/** Partial summaries (when even the summary request would not fit) run at most this many times per compaction. */
const MAX_ROUNDS = 4;
/** Share of the window left free when deciding what a summary request can hold. */
const ESTIMATE_MARGIN = 0.05;

function preview(message: Message | undefined): string {
  if (!message) return '';
  const text = messageText(message).replace(/\s+/g, ' ').trim();
  if (text) return text.slice(0, 80);
  const calls = message.content.flatMap((p) => (p.type === 'tool_call' ? [p.name] : []));
  return calls.length ? `(calls ${calls.join(', ')})` : `(${message.role} message)`;
}

/**
 * The compaction strategy (the default). Below the threshold the history is sent as it is, with
 * cache breakpoints that keep it a cache read. Past it: old tool outputs are cut to head + tail and
 * superseded file reads dropped; if that is not enough, the older turns are summarized by the model
 * (reusing the cached prefix) and the recent turns kept word for word. User messages are carried
 * into the summary message verbatim. The result replaces the stored history and the user is told.
 */
export default definePlugin<Options>({
  name: 'context-compaction',
  errors: COMPACTION_ERRORS,
  version: '1.0.0',
  configKey: 'context.compaction',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      threshold: { type: 'number', minimum: 0.1, maximum: 0.95, default: 0.8 },
      target: { type: 'number', minimum: 0.05, maximum: 0.9, default: 0.5 },
      keepRecentTokens: { type: 'integer', minimum: 0, default: 20000 },
      truncateAbove: { type: 'integer', minimum: 500, default: 8000 },
      headChars: { type: 'integer', minimum: 100, default: 5000 },
      tailChars: { type: 'integer', minimum: 0, default: 2000 },
      dropSupersededReads: { type: 'boolean', default: true },
      summaryMaxTokens: { type: 'integer', minimum: 256, default: 4096 },
    },
  },
  apply(kernel, options) {
    const threshold = options.threshold ?? 0.8;
    const target = options.target ?? 0.5;
    if (target >= threshold)
      throw new ConfigError(
        'ASSISTANT_PLUGIN_OPTIONS_INVALID',
        `context.compaction.target (${target}) must be below context.compaction.threshold (${threshold}): compaction must end under the point where it starts`,
        { plugin: 'context-compaction' },
      );
    const keepRecent = options.keepRecentTokens ?? 20000;
    const summaryMaxTokens = options.summaryMaxTokens ?? 4096;
    const headChars = options.headChars ?? 5000;
    const tailChars = options.tailChars ?? 2000;
    const prune: PruneOptions = {
      headChars,
      tailChars,
      truncateAbove: Math.max(options.truncateAbove ?? 8000, headChars + tailChars + 500),
      dropSupersededReads: options.dropSupersededReads ?? true,
    };
    const planner = createCacheBreakpointPlanner();
    // Room the summary request needs besides the history: its instruction (with a margin for the plan and a focus) and its output.
    const summaryReserve = estimateMessageTokens(summaryInstruction({ keptCount: 1, keptPreview: 'x'.repeat(80), todos: [] })) + 1000 + summaryMaxTokens;

    // Per conversation: the size the last compaction ended at, when it could not get under the threshold.
    const stuckAt = new Map<string | undefined, number>();

    const measureWith = (view: ContextView, messages: Message[]) => kernel.budget.measure({ ...view, messages });
    /**
     * Recent turns kept word for word: keepRecentTokens, but in a small window no more than what the
     * target leaves after the system prompt, tools and the summary (20k recent tokens cannot stay in a 32k window).
     */
    const recentBudget = (view: ContextView) => Math.max(0, Math.min(keepRecent, Math.floor(target * view.budget.window) - measureWith(view, []).total - summaryMaxTokens));
    /** Past this the request, or the summary request that would shrink it, no longer fits: compaction is a must. */
    const limitAt = (view: ContextView) => view.budget.window - Math.max(view.budget.outputReserve, summaryReserve);
    /** Where compaction starts: the threshold, but never so late that the summary request would not fit. */
    const triggerAt = (view: ContextView) => Math.min(threshold * view.budget.window, limitAt(view));
    /** Compact past the trigger, unless the last compaction could not get under it and little has been added since. */
    const due = (view: ContextView, measure: ContextMeasure, agentId: string | undefined) => {
      const total = measure.total;
      // `free` counts the estimate's margin too: large for a resumed session, whose history no provider has reported on yet.
      if (total > limitAt(view) || measure.free < 0) return true;
      const stuck = stuckAt.get(agentId);
      return total > triggerAt(view) && (stuck === undefined || total > stuck + 0.1 * view.budget.window);
    };
    // Measures are calibrated on what was sent before; new content of another kind (a huge log after code) can
    // count higher than that ratio says, so a summary request is sized on the larger of the two with a margin.
    const fitsSummary = (view: ContextView, messages: Message[], prefix: Pick<SummaryPrefix, 'system' | 'tools' | 'thinkingBudget'> = view) => {
      const request = { ...view, system: prefix.system, tools: prefix.tools, messages };
      const calibrated = kernel.budget.measure(request).total;
      const raw = Object.values(estimateParts(request)).reduce((a, b) => a + b, 0);
      return Math.max(calibrated, raw) + summaryMaxTokens + (prefix.thinkingBudget ?? 0) <= view.budget.window * (1 - ESTIMATE_MARGIN);
    };
    /**
     * The prefix of a summary request over the whole of `history`: the last turn request's (a cache read)
     * when it fits, without its thinking budget when only that does not fit; undefined when even the view's would not.
     */
    const wholeSummaryPrefix = (view: ContextView, history: Message[], messages: Message[], reason: ContextReason, round: number): SummaryPrefix | undefined => {
      const last = kernel.budget.lastSent(reason.agentId);
      const prefix = summaryPrefix(view, history, last, round === 0 && !last);
      if (fitsSummary(view, messages, prefix)) return prefix;
      if (prefix.thinkingBudget && fitsSummary(view, messages, { ...prefix, thinkingBudget: undefined })) return { ...prefix, thinkingBudget: undefined };
      return undefined;
    };

    const finish = (view: ContextView, reason: ContextReason, messages: Message[]): ContextView => ({
      ...view,
      messages,
      cache: planner.place(messages, reason.agentId),
    });

    async function commit(view: ContextView, reason: ContextReason, before: ContextMeasure, messages: Message[], details: string[]): Promise<ContextView> {
      const after = measureWith(view, messages);
      if (after.free < 0)
        throw new ContextError(
          'ASSISTANT_CONTEXT_OVERFLOW',
          `after compaction the request still needs about ${after.total} input tokens, more than the ${after.window - after.outputReserve - after.margin} ${view.model} allows besides its output reserve and estimate margin; ` +
            'the latest turn alone is too large. Nothing was sent; start a new session or ask for smaller outputs',
          { plugin: 'context-compaction' },
        );
      await reason.replaceHistory?.({ messages, tokensBefore: before.total, tokensAfter: after.total });
      if (after.total > triggerAt(view)) stuckAt.set(reason.agentId, after.total);
      else stuckAt.delete(reason.agentId);
      contextNotice(
        kernel,
        reason,
        'info',
        `compacted the context: ${before.total} → ${after.total} tokens (saved ${before.total - after.total}); ${details.join('; ')}`,
      );
      return finish(view, reason, messages);
    }

    /** Summarizes the older turns; returns the new history and how many messages were summarized. */
    async function summarize(view: ContextView, reason: ContextReason): Promise<{ messages: Message[]; summarized: number }> {
      const todos = reason.agentId ? [] : (kernel.session?.todos ?? []);
      let current: Message[] = view.messages;
      let summarized = 0;
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const keep = recentTurnsStart(current, recentBudget(view));
        if (keep === 0 || (round > 0 && keep <= 1)) break;
        const instruction = summaryInstruction({ keptCount: current.length - keep, keptPreview: preview(current[keep]), focus: reason.focus, todos });
        let upTo = keep;
        let request: { messages: Message[]; prefix: SummaryPrefix };
        const whole = [...current, instruction];
        const prefix = wholeSummaryPrefix(view, current, whole, reason, round);
        if (prefix) {
          // The whole history after the last turn request's prefix: a cache read up to where that request ended.
          request = { messages: whole, prefix };
        } else {
          // Too large to send whole: summarize as many of the oldest (pruned) turns as fit, then go again.
          current = pruneToolOutputs(kernel, current, keep, prune).messages;
          const alone = summaryInstruction({ keptCount: 0, focus: reason.focus, todos });
          upTo = keep;
          while (upTo > 0 && !fitsSummary(view, [...current.slice(0, upTo), alone])) upTo = previousTurnBoundary(current, upTo - 1);
          if (upTo === 0)
            throw new ContextError(COMPACTION_ERRORS.ASSISTANT_CONTEXT_COMPACTION_FAILED, 'even the oldest turn is too large for a summary request within the window', {
              plugin: 'context-compaction',
            });
          request = { messages: [...current.slice(0, upTo), alone], prefix: { system: view.system, tools: view.tools, cache: { system: true, messages: [] }, reused: false } };
        }
        const text = await requestSummary(kernel, { view, ...request, maxTokens: summaryMaxTokens, agentId: reason.agentId, signal: reason.signal });
        summarized += upTo;
        current = [summaryMessage(text, preservedUserTexts(current.slice(0, upTo))), ...current.slice(upTo)];
        if (upTo === keep) break;
      }
      return { messages: current, summarized };
    }

    async function compact(view: ContextView, reason: ContextReason, before: ContextMeasure): Promise<ContextView> {
      const history = view.messages;
      const forced = reason.kind === 'compact';
      const keepStart = recentTurnsStart(history, recentBudget(view));
      const pruned = pruneToolOutputs(kernel, history, keepStart, prune);
      const pruneDetails = [
        ...(pruned.truncated ? [`cut ${pruned.truncated} old tool outputs to head and tail`] : []),
        ...(pruned.dropped ? [`dropped ${pruned.dropped} superseded file reads`] : []),
        ...(pruned.imagesRemoved ? [`removed ${pruned.imagesRemoved} old images`] : []),
      ];
      const prunedMeasure = measureWith(view, pruned.messages);
      if (!forced && pruneDetails.length && prunedMeasure.total <= target * view.budget.window)
        return commit(view, reason, before, pruned.messages, pruneDetails);

      if (keepStart === 0) {
        if (forced) {
          contextNotice(kernel, reason, 'info', 'nothing to compact yet: the whole history is recent turns');
          return finish(view, reason, history);
        }
        // Only recent turns, and they are too large: cut the outputs of all but the latest turn.
        const lastTurn = previousTurnBoundary(history, history.length - 1);
        const hard = pruneToolOutputs(kernel, history, lastTurn, prune);
        return commit(view, reason, before, hard.messages, [`cut ${hard.truncated} recent tool outputs to head and tail`]);
      }

      let result: { messages: Message[]; summarized: number };
      try {
        result = await summarize(view, reason);
      } catch (error) {
        if (reason.signal?.aborted) throw error;
        const why = (error as Error)?.message ?? String(error);
        if (!forced && pruneDetails.length && prunedMeasure.free >= 0 && prunedMeasure.total <= triggerAt(view)) {
          contextNotice(kernel, reason, 'warn', `the summary request failed (${why}); cut old tool outputs instead`);
          return commit(view, reason, before, pruned.messages, pruneDetails);
        }
        throw new ContextError(COMPACTION_ERRORS.ASSISTANT_CONTEXT_COMPACTION_FAILED, `compacting the context failed: ${why}; the history is unchanged`, {
          plugin: 'context-compaction',
          cause: error,
        });
      }
      let messages = result.messages;
      const details = [`summarized ${result.summarized} older messages and kept ${messages.length - 1} recent ones word for word`];
      if (measureWith(view, messages).total > triggerAt(view)) {
        const hard = pruneToolOutputs(kernel, messages, previousTurnBoundary(messages, messages.length - 1), prune);
        messages = hard.messages;
        if (hard.truncated) details.push(`cut ${hard.truncated} recent tool outputs to head and tail`);
      }
      return commit(view, reason, before, messages, details);
    }

    tapContextStrategy(kernel, 'compaction', async (view, reason) => {
      const before = kernel.budget.measure(view);
      if (reason.kind === 'turn' && !due(view, before, reason.agentId)) return finish(view, reason, view.messages);
      return compact(view, reason, before);
    });
  },
});
