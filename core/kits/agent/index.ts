/**
 * The agent loop for plugins and embedders that drive runs themselves (`<pkg>/kits/agent`): sub-agents,
 * replays, front ends. Open a session, make a runner, run prompts.
 */
export { openSession, type SessionState, type OpenSessionOptions } from '../../agent/session.js';
export { runAgentLoop, type AgentLoopOptions, type AgentLoopResult } from '../../agent/loop.js';
export { createRunner, type AgentRunner, type RunOptions } from '../../agent/runner.js';
export { sessionConversation, memoryConversation, type Conversation } from '../../agent/conversation.js';
export { createSteeringQueue, type SteeringQueue } from '../../agent/steering.js';
