import { ContextError } from '../kernel/errors.js';
import { Stage } from '../kernel/hooks.js';
import { sourceFor } from '../kernel/config-source.js';
import { didYouMean } from '../kernel/close-matches.js';
import type { Kernel } from '../kernel/kernel-types.js';
import type { ContextReason, ContextView } from '../types/context.js';

/** The tap name of the strategy `name` on the `context` hook; the loop checks the configured one exists. */
export function contextStrategyTapName(name: string): string {
  return `context-strategy:${name}`;
}

/** The strategy the config selects (`context.strategy`), if any. */
export function selectedContextStrategy(kernel: Kernel): string | undefined {
  const strategy = kernel.config.context?.strategy;
  return typeof strategy === 'string' ? strategy : undefined;
}

/**
 * Taps `context` as the strategy `name` when the config selects it, so only the selected strategy
 * ever shapes the message list. Strategies run first (Stage.FIRST): plugins that decorate the view
 * (a plan reminder at its end) see the strategy's result. Returns whether it was selected.
 */
export function tapContextStrategy(
  kernel: Kernel,
  name: string,
  strategy: (view: ContextView, reason: ContextReason) => Promise<ContextView>,
): boolean {
  offered(kernel).add(name);
  if (selectedContextStrategy(kernel) !== name) return false;
  kernel.hooks.context.tapPromise({ name: contextStrategyTapName(name), stage: Stage.FIRST }, strategy);
  return true;
}

/** The strategies each kernel's plugins offer, selected or not (for the suggestion when the config names none of them). */
const strategiesOffered = new WeakMap<Kernel, Set<string>>();
function offered(kernel: Kernel): Set<string> {
  let names = strategiesOffered.get(kernel);
  if (!names) strategiesOffered.set(kernel, (names = new Set()));
  return names;
}

/** Fails when `context.strategy` names a strategy no loaded plugin tapped. */
export function checkContextStrategy(kernel: Kernel): void {
  const selected = selectedContextStrategy(kernel);
  if (!selected) return;
  const taps = kernel.hooks.context.taps;
  if (taps.some((t) => t.name === contextStrategyTapName(selected))) return;
  const known = [...offered(kernel)].sort();
  throw new ContextError(
    'ASSISTANT_CONTEXT_STRATEGY_UNKNOWN',
    `context.strategy is "${selected}" but no loaded plugin provides that strategy (set in ${sourceFor(kernel.resolvedConfig, '/context/strategy')})${didYouMean(selected, known)}; ` +
      (known.length ? `available: ${known.join(', ')}` : 'no loaded plugin offers a strategy') +
      ' (the built-ins are compaction, rolling and static; a strategy from another package needs its plugin in plugins)',
  );
}

/** Tells the user something about the context (a compaction, a rotation), as a `notice` event of the conversation. */
export function contextNotice(kernel: Kernel, reason: ContextReason, level: 'info' | 'warn', message: string): void {
  kernel.hooks.event.call({ type: 'notice', level, message, agentId: reason.agentId, sessionId: reason.sessionId });
}
