import type { Kernel } from '../../kernel/kernel-types.js';
import type { AgentRunner, SessionState } from '../../types/agent.js';
import { sessionConversation } from './conversation.js';
import { runAgentLoop } from './loop.js';
import { createSteeringQueue } from './steering.js';

/** Creates the runner for the kernel's open session. */
export function createRunner(kernel: Kernel, session: SessionState): AgentRunner {
  const steering = createSteeringQueue();
  let controller: AbortController | undefined;
  return {
    session,
    get busy() {
      return controller !== undefined;
    },
    get queued() {
      return steering.size;
    },
    async run(prompt, options = {}) {
      if (controller) throw new Error('a prompt is already running; steer it or abort it first');
      controller = new AbortController();
      try {
        return await runAgentLoop(kernel, {
          conversation: sessionConversation(session),
          prompt,
          signal: controller.signal,
          // Read at each tool batch, so a mode switched in the UI applies from the next tool call.
          get mode() {
            return session.mode;
          },
          sessionId: session.info.id,
          steering,
          limits: options.limits,
          toolFilter: options.toolFilter,
          model: options.model,
        });
      } finally {
        controller = undefined;
      }
    },
    steer: (text) => steering.push(text),
    takeQueued: () => steering.drain(),
    abort() {
      controller?.abort();
    },
  };
}
