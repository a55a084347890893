import { addUsage, emptyUsage, type Message, type SystemSection, type Usage } from '../types/messages.js';
import type { CacheHints, ToolSpec } from '../types/provider.js';
import type { ContextBudget, ContextMeasure, ContextPart } from '../types/context.js';
import { estimateParts, sumParts } from './estimate.js';
import { costUsd, findPrice, type ModelPrice, type PriceTable } from './pricing.js';

/** What a measure needs: the request's content and its budget. */
export interface MeasureInput {
  /** System prompt sections. */
  system: readonly SystemSection[];
  /** Tools offered. */
  tools: readonly ToolSpec[];
  /** Messages sent. */
  messages: readonly Message[];
  /** The window and output reserve. */
  budget: ContextBudget;
  /** The model (tokenizers and calibration are per model). */
  model: string;
}

/** A request that was sent, with the usage the provider reported for it. */
export interface SentRequest extends MeasureInput {
  /** The provider it went to. */
  provider: string;
  /** The sub-agent that sent it; absent for the main agent. */
  agentId?: string;
  /** A loop turn, or a compaction's summary call. */
  purpose?: 'turn' | 'compaction';
  /** The usage the provider reported. */
  usage: Usage;
  /** The prompt-cache breakpoints it carried. */
  cache?: CacheHints;
  /** Its thinking budget (absent or 0: off); a change of it invalidates Anthropic's cached messages. */
  thinkingBudget?: number;
}

/** One model request as the ledger keeps it: cache reads and writes, cost, and the context breakdown. */
export interface RequestRecord {
  /** 1-based, in the order requests finished. */
  seq: number;
  /** The provider it went to. */
  provider: string;
  /** The model it went to. */
  model: string;
  /** The sub-agent that sent it; absent for the main agent. */
  agentId?: string;
  /** A loop turn, or a compaction's summary call. */
  purpose: 'turn' | 'compaction';
  /** The usage the provider reported. */
  usage: Usage;
  /** Undefined when no price is known for the model. */
  costUsd?: number;
  /** The request's input by part, scaled to the reported input. */
  measure: ContextMeasure;
  /** When it finished (ms since the epoch). */
  time: number;
}

/** Sums over requests. */
export interface LedgerTotals {
  /** Requests recorded. */
  requests: number;
  /** Their usage, summed. */
  usage: Usage;
  /** Cost of the priced requests. */
  costUsd: number;
  /** `provider/model` pairs with no known price (their requests cost nothing in `costUsd`). */
  unpriced: string[];
}

/**
 * The budget accounting of one kernel: measures requests by part (the tokenizer, calibrated by
 * what the provider reported for earlier requests of the same model) and keeps every request's
 * usage and cost. Provider-neutral: prices come from the `pricing` config key.
 */
export interface ContextLedger {
  /** Input tokens of a request that is about to be sent, by part. */
  measure(view: MeasureInput): ContextMeasure;
  /** Records a sent request and its reported usage; later measures of the model are calibrated by it. */
  record(sent: SentRequest): RequestRecord;
  /** Every request of this process, oldest first. */
  readonly requests: readonly RequestRecord[];
  /** The latest request of an agent (the main agent when `agentId` is absent). */
  latest(agentId?: string): RequestRecord | undefined;
  /**
   * The latest turn request of an agent as it was sent (after `providerRequest`): system, tools,
   * messages and cache breakpoints. A compaction summary reuses it as its prefix, so it is a cache read.
   */
  lastSent(agentId?: string): SentRequest | undefined;
  /** Totals over every request, or one agent's (`null`: the main agent only). */
  totals(agentId?: string | null): LedgerTotals;
  /** The configured price of a model. */
  price(provider: string, model: string): ModelPrice | undefined;
}

/** Reported input of a request: plain input plus cache reads and writes. */
export function inputTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** Bounds on the calibration ratio: a wild report (a provider that counts nothing) cannot wreck the budget. */
const MIN_RATIO = 0.25;
const MAX_RATIO = 4;
/**
 * How far the tokenizer's count of content no provider has reported on yet may be off (code and
 * escaped JSON tokenize differently from prose). That much of it is kept free besides the output
 * reserve, so a request measured as just fitting cannot go over the window.
 */
const UNREPORTED_UNCERTAINTY = 0.2;

/** Creates the ledger; `prices` is read on each use so a reloaded config applies at once. */
export function createContextLedger(prices: () => PriceTable | undefined): ContextLedger {
  const requests: RequestRecord[] = [];
  // Reported ÷ estimated input of the latest request per model. Since the estimate of a message never
  // changes, `ratio × estimate` equals the reported count for what was sent plus the calibrated
  // estimate of what changed since.
  const ratios = new Map<string, number>();
  // The estimate of the latest reported request per model: what a new view adds beyond it is unreported.
  const reportedEstimates = new Map<string, number>();
  // Only the latest turn request per agent is kept: it holds references to messages the history holds anyway.
  const lastSent = new Map<string | undefined, SentRequest>();

  const measure = (view: MeasureInput): ContextMeasure => {
    const estimated = estimateParts(view);
    const ratio = ratios.get(view.model);
    const scale = ratio ?? 1;
    const parts = {} as Record<ContextPart, number>;
    for (const [part, tokens] of Object.entries(estimated)) parts[part as ContextPart] = Math.round(tokens * scale);
    const total = sumParts(parts);
    const unreported = Math.max(0, sumParts(estimated) - (reportedEstimates.get(view.model) ?? 0));
    const margin = Math.ceil(unreported * scale * UNREPORTED_UNCERTAINTY);
    const { window, outputReserve } = view.budget;
    return { parts, total, window, outputReserve, margin, free: window - outputReserve - margin - total, basis: ratio === undefined ? 'estimated' : 'reported' };
  };

  const price = (provider: string, model: string) => findPrice(prices(), provider, model);

  return {
    measure,
    requests,
    price,
    record(sent) {
      const estimate = sumParts(estimateParts(sent));
      const reported = inputTokens(sent.usage);
      if (reported > 0 && estimate > 0) {
        ratios.set(sent.model, Math.min(MAX_RATIO, Math.max(MIN_RATIO, reported / estimate)));
        reportedEstimates.set(sent.model, estimate);
      }
      const found = price(sent.provider, sent.model);
      const record: RequestRecord = {
        seq: requests.length + 1,
        provider: sent.provider,
        model: sent.model,
        agentId: sent.agentId,
        purpose: sent.purpose ?? 'turn',
        usage: { ...sent.usage },
        costUsd: found ? costUsd(sent.usage, found) : undefined,
        measure: measure(sent),
        time: Date.now(),
      };
      requests.push(record);
      if (record.purpose === 'turn') lastSent.set(sent.agentId, sent);
      return record;
    },
    latest(agentId) {
      for (let i = requests.length - 1; i >= 0; i--) if (requests[i]!.agentId === agentId && requests[i]!.purpose === 'turn') return requests[i];
      return undefined;
    },
    lastSent: (agentId) => lastSent.get(agentId),
    totals(agentId) {
      const usage = emptyUsage();
      const unpriced = new Set<string>();
      let cost = 0;
      let count = 0;
      for (const r of requests) {
        if (agentId !== undefined && r.agentId !== (agentId ?? undefined)) continue;
        count++;
        addUsage(usage, r.usage);
        if (r.costUsd === undefined) unpriced.add(`${r.provider}/${r.model}`);
        else cost += r.costUsd;
      }
      return { requests: count, usage, costUsd: cost, unpriced: [...unpriced].sort() };
    },
  };
}
