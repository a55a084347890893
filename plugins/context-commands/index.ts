import { definePlugin } from '../../core/index.js';
import { sessionConversation } from '../../core/kits/agent/index.js';
import { assembleContextView, buildContextView, requestSettings } from '../../core/kits/context/index.js';
import { formatContext, formatCost } from './format.js';

const NO_SESSION = 'No session is open yet: send a prompt first.';

/**
 * `/context` (the window by part), `/cost` (spend and cache economics, from the kernel's budget
 * ledger) and `/compact [focus]` (runs the configured context strategy on demand).
 */
export default definePlugin({
  name: 'context-commands',
  version: '1.0.0',
  apply(kernel) {
    kernel.hooks.commands.tap('context-commands', (registry) => {
      registry.addSlash({
        name: 'context',
        description: 'Show how the context window is used, by part',
        run: async () => {
          const session = kernel.session;
          if (!session) return NO_SESSION;
          const settings = requestSettings(kernel);
          const view = await assembleContextView(kernel, { messages: session.messages, settings, reason: { kind: 'turn', sessionId: session.info.id } });
          return formatContext(settings.model, kernel.budget.measure(view), kernel.budget.latest());
        },
      });
      registry.addSlash({
        name: 'cost',
        description: "Show this session's cost, cache reads and writes",
        run: () => {
          const records = kernel.budget.requests;
          const models = [...new Set(records.map((r) => `${r.provider}/${r.model}`))];
          const prices = models.map((model) => {
            const [provider, ...rest] = model.split('/');
            return { model, price: kernel.budget.price(provider!, rest.join('/')) };
          });
          return formatCost(kernel.budget.totals(), records, prices);
        },
      });
      registry.addSlash({
        name: 'compact',
        description: 'Compact the conversation now, optionally focusing the summary',
        usage: '[focus]',
        run: async (args) => {
          const session = kernel.session;
          if (!session) return NO_SESSION;
          const conversation = sessionConversation(session);
          const before = session.messages.length;
          let saved: string | undefined;
          await buildContextView(kernel, {
            messages: session.messages,
            settings: requestSettings(kernel),
            reason: {
              kind: 'compact',
              focus: args.trim() || undefined,
              sessionId: session.info.id,
              replaceHistory: async (replacement) => {
                saved = `${replacement.tokensBefore} → ${replacement.tokensAfter} tokens`;
                await conversation.replace(replacement);
              },
            },
          });
          return saved ? `Compacted: ${saved}, ${before} → ${session.messages.length} messages` : 'Nothing was compacted';
        },
      });
    });
  },
});
