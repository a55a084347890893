/** What the Task tool needs once it starts a sub-agent: imported on the first call (task-tool.ts). */
export { runSubAgent } from './run-agent.js';
export { agentReport } from './report.js';
