import { ContextError } from '../kernel/errors.js';
import { sourceFor } from '../kernel/config-source.js';
import { didYouMean } from '../kernel/close-matches.js';
import type { Hooks } from '../kernel/hooks.js';
import type { Kernel } from '../kernel/kernel-types.js';
import type { ContextReason, ContextView } from '../types/context.js';

/** A context strategy: shapes the view of the history a request sends. */
export type ContextStrategy = (view: ContextView, reason: ContextReason) => Promise<ContextView>;

/** The strategy the config selects (`context.strategy`), if any. */
export function selectedContextStrategy(kernel: Kernel): string | undefined {
  const strategy = kernel.config.context?.strategy;
  return typeof strategy === 'string' ? strategy : undefined;
}

/**
 * Offers the strategy `name` (`hooks.contextStrategy.for(name)`), as providers and stores are
 * offered: every strategy plugin offers its own, and only the one `context.strategy` selects runs,
 * before the `context` decorators. Returns whether it is the selected one.
 */
export function tapContextStrategy(kernel: Kernel, name: string, strategy: ContextStrategy): boolean {
  kernel.hooks.contextStrategy.for(name).tapPromise(name, strategy);
  return selectedContextStrategy(kernel) === name;
}

/** The strategy names tapped on each kernel's `contextStrategy` map (the kernel fills it as names are first tapped). */
const offered = new WeakMap<Hooks['contextStrategy'], Set<string>>();

/** The names offered on `strategies` so far; the kernel adds each name as it is first tapped. */
export function offeredContextStrategies(strategies: Hooks['contextStrategy']): Set<string> {
  let names = offered.get(strategies);
  if (!names) offered.set(strategies, (names = new Set()));
  return names;
}

/** Fails when `context.strategy` names a strategy no loaded plugin offers. */
export function checkContextStrategy(kernel: Kernel): void {
  const selected = selectedContextStrategy(kernel);
  if (!selected || kernel.hooks.contextStrategy.get(selected)?.isUsed()) return;
  const known = [...offeredContextStrategies(kernel.hooks.contextStrategy)].filter((name) => kernel.hooks.contextStrategy.get(name)?.isUsed()).sort();
  throw new ContextError(
    'ASSISTANT_CONTEXT_STRATEGY_UNKNOWN',
    `context.strategy is "${selected}" but no loaded plugin provides that strategy (set in ${sourceFor(kernel.resolvedConfig, '/context/strategy')})${didYouMean(selected, known)}; ` +
      (known.length ? `available: ${known.join(', ')}` : 'no loaded plugin offers a strategy') +
      ' (the built-ins are compaction, rolling and static; a strategy from another package needs its plugin in plugins)',
  );
}

/** Runs the selected strategy on `view` (unchanged when the config selects none); fails when no plugin offers it. */
export async function applyContextStrategy(kernel: Kernel, view: ContextView, reason: ContextReason): Promise<ContextView> {
  checkContextStrategy(kernel);
  const selected = selectedContextStrategy(kernel);
  return selected ? kernel.hooks.contextStrategy.get(selected)!.promise(view, reason) : view;
}

/** Tells the user something about the context (a compaction, a rotation), as a `notice` event of the conversation. */
export function contextNotice(kernel: Kernel, reason: ContextReason, level: 'info' | 'warn', message: string): void {
  kernel.hooks.event.call({ type: 'notice', level, message, agentId: reason.agentId, sessionId: reason.sessionId });
}
