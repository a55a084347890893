import { ContextError, definePlugin } from '../../core/index.js';
import { contextNotice, createCacheBreakpointPlanner, tapContextStrategy } from '../../core/kits/context/index.js';

interface Options {
  /** Share of the usable window at which the user is warned once that the session is filling up. */
  warnAt?: number;
}

/**
 * The static strategy: append-only, everything cacheable. For fixed-persona or short sessions. It
 * never drops or rewrites a message, so when the history no longer fits it refuses with a clear
 * error instead of silently overflowing.
 */
export default definePlugin<Options>({
  name: 'context-static',
  version: '1.0.0',
  configKey: 'context.static',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { warnAt: { type: 'number', exclusiveMinimum: 0, maximum: 1, default: 0.85 } },
  },
  apply(kernel, options) {
    const planner = createCacheBreakpointPlanner();
    const warned = new Set<string | undefined>();
    tapContextStrategy(kernel, 'static', async (view, reason) => {
      const measure = kernel.budget.measure(view);
      if (measure.free < 0)
        throw new ContextError(
          'ASSISTANT_CONTEXT_OVERFLOW',
          `the static context strategy keeps every message, and this conversation now needs about ${measure.total} input tokens, more than the ` +
            `${measure.window - measure.outputReserve - measure.margin} that ${view.model} allows besides its output reserve and estimate margin; nothing was sent. ` +
            'Start a new session, or set context.strategy to "compaction" or "rolling" in .assistantrc',
          { plugin: 'context-static' },
        );
      if (reason.kind === 'compact') contextNotice(kernel, reason, 'info', 'the static context strategy never compacts; switch context.strategy to "compaction" to summarize older turns');
      const usable = measure.window - measure.outputReserve;
      if (!warned.has(reason.agentId) && measure.total > usable * (options.warnAt ?? 0.85)) {
        warned.add(reason.agentId);
        contextNotice(kernel, reason, 'warn', `the context is ${Math.round((measure.total / usable) * 100)}% full and the static strategy never drops messages; start a new session soon`);
      }
      return { ...view, cache: planner.place(view.messages, reason.agentId) };
    });
  },
});
