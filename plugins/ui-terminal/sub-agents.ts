import type { DoneReason, OriginEvent, ToolCategory, ToolCallPart } from '../../core/index.js';
import { callSummary, nestIndent, toolLines, type ToolRecord } from './render/tool-line.js';
import type { Style } from './terminal/style.js';
import { sanitize, truncate } from './terminal/width.js';

/** Finished calls of one sub-agent shown under its parent call; older ones are counted, not listed. */
const SHOWN_CALLS = 8;

/** What the transcript keeps of one sub-agent until the call that started it finishes. */
interface AgentView {
  agentId: string;
  parentCallId: string;
  /** Depth of the sub-agent's own calls (1 under a main-agent call). */
  depth: number;
  records: ToolRecord[];
  running: Map<string, { call: ToolCallPart; summary: string }>;
  denied: Set<string>;
  toolUses: number;
  tokens: number;
  done?: { reason: DoneReason; turns: number };
  /** The last warning or error it reported (why it stopped). */
  problem?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const short = (n: number) => (n < 1000 ? String(n) : `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`);

/**
 * Sub-agents' work, nested under the call that started them (events carry `parentCallId`). Their
 * calls are kept, not printed, while they run (parallel agents would interleave), and shown as a
 * block under the parent call's line when it finishes, with each agent's final status; the live
 * area shows what each one is doing meanwhile.
 */
export class SubAgents {
  private readonly agents = new Map<string, AgentView>();

  constructor(
    private readonly style: Style,
    private readonly categoryOf: (tool: string) => ToolCategory | undefined,
  ) {}

  /** Takes an event of a sub-agent that has a parent call. */
  handle(event: OriginEvent & { agentId: string; parentCallId: string }): void {
    const view = this.view(event);
    switch (event.type) {
      case 'tool_start':
        view.running.set(event.call.id, { call: event.call, summary: callSummary(event.call.input, event.summary) });
        break;
      case 'tool_end': {
        const running = view.running.get(event.call.id);
        view.running.delete(event.call.id);
        if (view.denied.has(event.call.id) && event.result.isError) break;
        view.toolUses++;
        view.records.push({
          call: event.call,
          summary: running?.summary ?? callSummary(event.call.input, undefined),
          result: event.result,
          metadata: event.metadata,
          durationMs: event.durationMs,
          category: this.categoryOf(event.call.name),
          depth: view.depth,
        });
        break;
      }
      case 'permission':
        if (event.decision.behavior !== 'deny' || !event.request.callId) break;
        view.denied.add(event.request.callId);
        view.toolUses++;
        view.records.push({
          call: { type: 'tool_call', id: event.request.callId, name: event.request.tool, input: event.request.input },
          summary: callSummary(event.request.input, event.request.command),
          denied: event.decision.reason,
          category: event.request.category,
          depth: view.depth,
        });
        break;
      case 'model':
        if (event.event.type === 'stop') view.tokens += event.event.usage.inputTokens + event.event.usage.cacheReadTokens + event.event.usage.cacheWriteTokens + event.event.usage.outputTokens;
        break;
      case 'notice':
        if (event.level !== 'info') view.problem = event.message;
        break;
      case 'done':
        view.done = { reason: event.reason, turns: event.turns };
        break;
    }
  }

  /** True when sub-agents were started by this call. */
  started(callId: string): boolean {
    return this.childrenOf(callId).length > 0;
  }

  /** The summary after a parent call's name: "3 tool uses · 12k tokens". */
  note(callId: string): string {
    const children = this.childrenOf(callId);
    const uses = children.reduce((n, a) => n + a.toolUses, 0);
    const tokens = children.reduce((n, a) => n + a.tokens, 0);
    return `${plural(uses, 'tool use')} · ${short(tokens)} tokens`;
  }

  /**
   * The block under a finished parent call: each agent's calls (the latest few, nested calls of
   * their own under them) and its final status. The agents are forgotten afterwards.
   */
  block(callId: string, width: number): string[] {
    const lines: string[] = [];
    for (const agent of this.childrenOf(callId)) {
      this.agents.delete(agent.agentId);
      const indent = nestIndent(agent.depth);
      const hidden = agent.records.length - SHOWN_CALLS;
      if (hidden > 0) lines.push(this.style.gray(`${indent}… +${plural(hidden, 'earlier tool use')}`));
      for (const record of agent.records.slice(Math.max(0, hidden))) {
        const nested = this.started(record.call.id);
        lines.push(...toolLines(nested ? { ...record, note: this.note(record.call.id) } : record, this.style, width));
        if (nested) lines.push(...this.block(record.call.id, width));
      }
      lines.push(truncate(`${indent}${this.style.gray('⎿ ')}${this.status(agent)}`, width));
    }
    return lines;
  }

  /** Live lines under a running parent call: what each of its agents is doing now. */
  live(callId: string, width: number): string[] {
    const { style } = this;
    return this.childrenOf(callId).map((agent) => {
      const current = [...agent.running.values()].pop();
      const doing = current ? `${current.call.name} ${sanitize(current.summary).split('\n')[0]}` : agent.toolUses ? 'Thinking…' : 'Starting…';
      return truncate(`${nestIndent(agent.depth)}${style.gray('⎿ ')}${doing}`, width - 24) + style.gray(` · ${this.note(callId)}`);
    });
  }

  /** Forgets everything (a new prompt, or the run ended without the parent call finishing). */
  clear(): void {
    this.agents.clear();
  }

  private status(agent: AgentView): string {
    const { style } = this;
    const done = agent.done;
    const why = agent.problem ? `: ${sanitize(agent.problem).split('\n')[0]}` : '';
    if (!done) return style.gray('Ended');
    switch (done.reason) {
      case 'completed':
        return style.green('Done') + style.gray(` (${plural(done.turns, 'turn')})`);
      case 'max_turns':
        return style.yellow(`Stopped at its turn limit (${plural(done.turns, 'turn')}); partial results returned`);
      case 'budget':
        return style.yellow('Stopped at its token or cost budget; partial results returned');
      case 'tool_failures':
        return style.yellow('Stopped after repeated tool failures; partial results returned');
      case 'aborted':
        return style.red('Interrupted');
      case 'error':
        return style.red(`Failed${why}`);
    }
  }

  private childrenOf(callId: string): AgentView[] {
    return [...this.agents.values()].filter((a) => a.parentCallId === callId);
  }

  private view(event: OriginEvent & { agentId: string; parentCallId: string }): AgentView {
    let view = this.agents.get(event.agentId);
    if (!view) {
      // A sub-agent started by another sub-agent's call sits one level deeper than that agent.
      const parent = [...this.agents.values()].find((a) => a.records.some((r) => r.call.id === event.parentCallId) || a.running.has(event.parentCallId));
      view = {
        agentId: event.agentId,
        parentCallId: event.parentCallId,
        depth: parent ? parent.depth + 1 : 1,
        records: [],
        running: new Map(),
        denied: new Set(),
        toolUses: 0,
        tokens: 0,
      };
      this.agents.set(event.agentId, view);
    }
    return view;
  }
}
