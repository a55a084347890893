import { definePlugin } from '@assistant-cli/assistant';
import { contextNotice, createCacheBreakpointPlanner, tapContextStrategy } from '@assistant-cli/assistant/kits/context';
import { elideOldResults } from './elide.js';

/** Options, from `context.recentToolResults` in .assistantrc (or the plugin's entry in `plugins`). */
export interface RecentToolResultsOptions {
  /** Tool results kept verbatim, counting back from the newest (default 3). */
  keep?: number;
  /** Characters of an older result kept as a preview in its note (default 200). */
  previewChars?: number;
}

/** The name `context.strategy` selects this strategy by. */
export const STRATEGY = 'recent-tool-results';

/**
 * A context strategy: the newest `keep` tool results go to the model verbatim, older ones as a
 * short note (which call, how big, how it began). Tool output is usually most of a coding
 * session's context, and old output is rarely needed word for word; the model can re-run a call.
 * The stored session keeps everything: only the request is cut down.
 */
export default definePlugin<RecentToolResultsOptions>({
  name: 'recent-tool-results',
  version: '0.1.0',
  kernelApi: '^2.0.0',
  configKey: 'context.recentToolResults',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      keep: { type: 'integer', minimum: 0, default: 3 },
      previewChars: { type: 'integer', minimum: 0, default: 200 },
    },
  },
  apply(kernel, options) {
    const planner = createCacheBreakpointPlanner();
    const told = new Set<string | undefined>();
    // Offered by name; the kernel runs it only when `context.strategy` is "recent-tool-results".
    tapContextStrategy(kernel, STRATEGY, async (view, reason) => {
      const { messages, elided } = elideOldResults(view.messages, { keep: options.keep ?? 3, previewChars: options.previewChars ?? 200 });
      if (elided && !told.has(reason.agentId)) {
        told.add(reason.agentId);
        contextNotice(kernel, reason, 'info', `from now on only the newest ${options.keep ?? 3} tool results are sent in full; older ones as short notes`);
      }
      return { ...view, messages, cache: planner.place(messages, reason.agentId) };
    });
  },
});
