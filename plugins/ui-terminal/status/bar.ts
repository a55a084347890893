import type { Kernel } from '../../../core/index.js';
import type { AgentRunner } from '../../../core/kits/agent/index.js';
import { statusLine } from '../render/status.js';
import type { Style } from '../terminal/style.js';
import { truncate } from '../terminal/width.js';
import { StatusCommand, statusLineConfig } from './command.js';
import { contextPercent, estimateContext, formatCost, statusFacts, statusJson } from './facts.js';

/**
 * The bottom of the screen: the built-in status line (directory, model, context used, cost, mode)
 * and, when `statusLine.command` is configured, the first line that command prints.
 */
export class StatusBar {
  private readonly command: StatusCommand | undefined;
  /** Requests up to this one belong to an earlier session of this process (before /clear or /resume). */
  private since: number;
  private estimate: { used: number; window: number } | undefined;

  constructor(
    private readonly kernel: Kernel,
    statusLine: unknown,
    changed: () => void,
  ) {
    const config = statusLineConfig(statusLine);
    this.command = config && new StatusCommand(config, kernel.cwd, changed);
    this.since = this.lastSeq();
  }

  /** A new session is driven from now on: its context and cost start from what it holds. */
  async sessionChanged(runner: AgentRunner): Promise<void> {
    this.since = this.lastSeq();
    this.estimate = undefined;
    // Before its first request, a resumed session's fill is estimated from its messages.
    this.estimate = await estimateContext(this.kernel, runner).catch(() => undefined);
  }

  lines(runner: AgentRunner, model: string, hint: string | undefined, style: Style, width: number): string[] {
    const facts = statusFacts(this.kernel, runner, model, { since: this.since, estimate: this.estimate });
    const main = statusLine(
      {
        cwd: this.kernel.cwd,
        model,
        mode: facts.mode,
        hint,
        context: facts.context ? `ctx ${contextPercent(facts.context)}` : undefined,
        cost: facts.costUsd !== undefined ? formatCost(facts.costUsd) : undefined,
      },
      style,
      width,
    );
    if (!this.command) return [main];
    this.command.update(statusJson(facts));
    const custom = this.command.view();
    if (!custom) return [main];
    return [main, custom.failed ? style.yellow(truncate(custom.text, width)) : truncate(custom.text, width)];
  }

  close(): void {
    this.command?.close();
  }

  private lastSeq(): number {
    const requests = this.kernel.budget.requests;
    return requests.length ? requests[requests.length - 1]!.seq : 0;
  }
}
