import { readFileSync } from 'node:fs';
import {
  type Kernel,
  type LimitsConfig,
  type Message,
  type PermissionMode,
  type ToolContext,
} from '../../core/index.js';
import { memoryConversation, runAgentLoop, type AgentLoopResult, type Conversation } from '../../core/kits/agent/index.js';
import { agentMode, DEFAULT_MAX_TURNS, READ_ONLY_TOOLS, type AgentType } from './agent-type.js';
import { toolMatcher } from './tool-patterns.js';

/** One sub-agent to run: its type, id and task, and the Task call that starts it. */
export interface SubAgentRun {
  type: AgentType;
  agentId: string;
  prompt: string;
  /** The Task call's context: signal, session, and the caller's mode, model and tool filter. */
  caller: ToolContext;
}

/** How a sub-agent ended, with its private history (for a partial report). */
export interface SubAgentOutcome {
  result: AgentLoopResult;
  messages: readonly Message[];
  mode: PermissionMode;
}

/** The budget of one sub-agent: its type's, else the `limits` config (tokens, cost) and the default turn limit. */
export function agentLimits(type: AgentType): LimitsConfig {
  const limits: LimitsConfig = { maxTurns: type.maxTurns ?? DEFAULT_MAX_TURNS };
  if (type.maxTokens !== undefined) limits.maxTokens = type.maxTokens;
  if (type.maxCostUsd !== undefined) limits.maxCostUsd = type.maxCostUsd;
  return limits;
}

/** A private history whose usage also counts toward the open session's totals. */
function subAgentConversation(kernel: Kernel, sessionId: string | undefined): Conversation {
  const conversation = memoryConversation();
  const own = conversation.recordUsage;
  return Object.assign(conversation, {
    async recordUsage(usage: Parameters<Conversation['recordUsage']>[0], model: string) {
      await own(usage, model);
      const session = kernel.session;
      if (session && session.info.id === sessionId) await session.record({ type: 'usage', usage, model });
    },
  });
}

/**
 * Runs a sub-agent to the end on the kernel's own loop: a fresh history, the type's instructions,
 * only the tools its type admits (and the caller may use), a mode never looser than the caller's,
 * its own budget, and the Task call's signal, so interrupting the caller stops it.
 */
export async function runSubAgent(kernel: Kernel, run: SubAgentRun): Promise<SubAgentOutcome> {
  const { type, caller } = run;
  const admits = toolMatcher(type.tools ?? READ_ONLY_TOOLS);
  const callerFilter = caller.toolFilter;
  const mode = agentMode(type, caller.mode ?? kernel.config.permissions?.mode ?? 'default');
  const conversation = subAgentConversation(kernel, caller.sessionId);
  const result = await runAgentLoop(kernel, {
    conversation,
    prompt: run.prompt,
    signal: caller.signal,
    mode,
    limits: agentLimits(type),
    agentId: run.agentId,
    parentCallId: caller.callId,
    sessionId: caller.sessionId,
    toolFilter: (name) => admits(name) && (!callerFilter || callerFilter(name)),
    system: [
      { id: 'agent', text: type.prompt },
      ...(mode === 'plan' ? [{ id: 'agent-read-only', text: readFileSync(new URL('./read-only-note.txt', import.meta.url), 'utf8').trim() }] : []),
      { id: 'agent-report', text: readFileSync(new URL('./report-instructions.txt', import.meta.url), 'utf8').trim() },
    ],
    model: type.model && type.model !== 'inherit' ? type.model : caller.model,
  });
  return { result, messages: conversation.messages, mode };
}
