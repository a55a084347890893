import { addUsage, emptyUsage, type Kernel, type PermissionMode, type Usage } from '../../../core/index.js';
import type { AgentRunner } from '../../../core/kits/agent/index.js';
import { assembleContextView, costUsd, inputTokens, requestSettings } from '../../../core/kits/context/index.js';

/** What the status line tells: where you are, with what, how full the window is and what it cost. */
export interface StatusFacts {
  sessionId: string;
  cwd: string;
  projectRoot: string;
  provider: string;
  model: string;
  mode: PermissionMode;
  /** Input tokens of the latest request (or an estimate of the next one), and the model's window. */
  context?: { used: number; window: number };
  /** US dollars spent in the session, when a price is known for what was used. */
  costUsd?: number;
  usage: Usage;
}

const minus = (a: Usage, b: Usage): Usage => ({
  inputTokens: Math.max(0, a.inputTokens - b.inputTokens),
  outputTokens: Math.max(0, a.outputTokens - b.outputTokens),
  cacheReadTokens: Math.max(0, a.cacheReadTokens - b.cacheReadTokens),
  cacheWriteTokens: Math.max(0, a.cacheWriteTokens - b.cacheWriteTokens),
});

/**
 * Reads the facts from the kernel's budget ledger (this process's requests since the session was
 * opened, `since` being the last request before, sub-agents included) and the session's usage
 * (which also holds the turns of a resumed session, from before this process: those earlier
 * tokens are priced at the session's model).
 */
export function statusFacts(kernel: Kernel, runner: AgentRunner, model: string, options: { since: number; estimate?: { used: number; window: number } }): StatusFacts {
  const session = runner.session;
  const provider = session.info.provider ?? kernel.config.provider?.name ?? 'unknown';
  const records = kernel.budget.requests.filter((r) => r.seq > options.since);
  const latest = records.filter((r) => !r.agentId && r.purpose === 'turn').pop();
  const usage = records.reduce((sum, r) => addUsage(sum, r.usage), emptyUsage());
  const mainUsage = records.filter((r) => !r.agentId).reduce((sum, r) => addUsage(sum, r.usage), emptyUsage());
  const earlier = minus(session.usage, mainUsage);
  const earlierPrice = kernel.budget.price(provider, session.info.model ?? model);
  const earlierTokens = inputTokens(earlier) + earlier.outputTokens;
  const priced = records.some((r) => r.costUsd !== undefined) || (earlierPrice !== undefined && earlierTokens > 0);
  const cost = records.reduce((sum, r) => sum + (r.costUsd ?? 0), 0) + (earlierPrice && earlierTokens ? costUsd(earlier, earlierPrice) : 0);
  return {
    sessionId: session.info.id,
    cwd: kernel.cwd,
    projectRoot: kernel.projectRoot,
    provider,
    model,
    mode: session.mode,
    context: latest ? { used: latest.measure.total, window: latest.measure.window } : options.estimate,
    costUsd: priced ? cost : undefined,
    usage: addUsage(usage, earlier),
  };
}

/** How full the window would be with the conversation as it stands (a resumed session before its first request). */
export async function estimateContext(kernel: Kernel, runner: AgentRunner): Promise<{ used: number; window: number } | undefined> {
  const session = runner.session;
  if (!session.messages.length) return undefined;
  const settings = requestSettings(kernel);
  const view = await assembleContextView(kernel, { messages: session.messages, settings, reason: { kind: 'turn', sessionId: session.info.id } });
  const measure = kernel.budget.measure(view);
  return { used: measure.total, window: measure.window };
}

/** `$0.0042`, `$1.25`. */
export function formatCost(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** The context used, as a share of the window: `12%`. */
export function contextPercent(context: { used: number; window: number }): string {
  if (!(context.window > 0)) return '?%';
  return `${Math.min(999, Math.round((context.used / context.window) * 100))}%`;
}

/** The JSON a `statusLine.command` reads on stdin (the shape Claude Code gives its status line command). */
export function statusJson(facts: StatusFacts): string {
  return JSON.stringify({
    hook_event_name: 'Status',
    session_id: facts.sessionId,
    cwd: facts.cwd,
    workspace: { current_dir: facts.cwd, project_dir: facts.projectRoot },
    model: { id: facts.model, display_name: facts.model, provider: facts.provider },
    permission_mode: facts.mode,
    cost: {
      total_cost_usd: facts.costUsd ?? null,
      total_input_tokens: inputTokens(facts.usage),
      total_output_tokens: facts.usage.outputTokens,
    },
    context_window: facts.context
      ? { used_tokens: facts.context.used, window_tokens: facts.context.window, used_percent: Math.round((facts.context.used / facts.context.window) * 1000) / 10 }
      : null,
  });
}

