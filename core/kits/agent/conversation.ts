import type { Message, Usage } from '../../types/messages.js';
import type { HistoryReplacement } from '../../types/context.js';
import type { SessionState } from '../../types/agent.js';

/** The message history a loop works on: the session's for the main agent, a private one for sub-agents. */
export interface Conversation {
  /** The history, oldest first. */
  readonly messages: readonly Message[];
  /** Adds a message at the end (and persists it, for a session). */
  append(message: Message): Promise<void>;
  /** Records a request's usage against the conversation. */
  recordUsage(usage: Usage, model: string): Promise<void>;
  /** A durability point (stores fsync). */
  checkpoint(reason: 'tool_result' | 'turn_end'): Promise<void>;
  /** Replaces the history with a compacted one (a context strategy's deliberate compaction). */
  replace(replacement: HistoryReplacement): Promise<void>;
}

/** The open session as a conversation: every change is recorded (and so persisted). */
export function sessionConversation(session: SessionState): Conversation {
  return {
    get messages() {
      return session.messages;
    },
    append: (message) => session.record({ type: 'message', message }),
    recordUsage: (usage, model) => session.record({ type: 'usage', usage, model }),
    checkpoint: (reason) => session.record({ type: 'checkpoint', reason }),
    replace: (replacement) => session.record({ type: 'compaction', ...replacement }),
  };
}

/** A private in-memory conversation (sub-agents, tests). */
export function memoryConversation(initial: Message[] = []): Conversation & { usage: Usage } {
  const messages = [...initial];
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return {
    messages,
    usage,
    async append(message) {
      messages.push(message);
    },
    async recordUsage(u) {
      usage.inputTokens += u.inputTokens;
      usage.outputTokens += u.outputTokens;
      usage.cacheReadTokens += u.cacheReadTokens;
      usage.cacheWriteTokens += u.cacheWriteTokens;
    },
    async checkpoint() {},
    async replace(replacement) {
      messages.splice(0, messages.length, ...replacement.messages);
    },
  };
}
