import { readFileSync } from 'node:fs';
import { errorResult, lazyImport, type Kernel, type ToolDefinition } from '../../core/index.js';
import { describeType, type AgentCatalog } from './catalog.js';
import { TASK_TOOL } from './tool-patterns.js';

/** The sub-agent runner and its report, imported on the first Task call. */
const subAgents = lazyImport('agents', 'sub-agent runner', () => import('./sub-agent.js'));

/** What the model sends to start a sub-agent. */
export interface TaskInput {
  description: string;
  prompt: string;
  subagent_type?: string;
}

/** How deep sub-agents may nest (a sub-agent whose type lists Task is depth 1 starting depth 2). */
export const MAX_DEPTH = 3;
/** A sub-agent's whole run is bounded by its turn and token budget; this only catches a run that hangs. */
export const TASK_TIMEOUT_MS = 60 * 60_000;

const DEFAULT_TYPE = 'general';

/**
 * The Task tool: starts a sub-agent of a catalog type on the main thread and returns its report.
 * It locks nothing itself (so several run in parallel); the sub-agent's own tool calls take their
 * locks in the kernel's one scheduler, and pass permission one by one.
 */
export function taskTool(kernel: Kernel, catalog: AgentCatalog): ToolDefinition<TaskInput> {
  const depths = new Map<string, number>();
  let started = 0;
  const names = [...catalog.types.keys()];
  const description = [
    readFileSync(new URL('./task.txt', import.meta.url), 'utf8').trim(),
    '',
    `Agent types (\`subagent_type\`, default \`${DEFAULT_TYPE}\`):`,
    ...[...catalog.types.values()].map(describeType),
  ].join('\n');

  return {
    name: TASK_TOOL,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        description: { type: 'string', minLength: 1, description: 'A short label for the task (3 to 5 words), shown to the user.' },
        prompt: { type: 'string', minLength: 1, description: 'The complete, self-contained task: goal, where to look, and what the report must contain.' },
        subagent_type: { type: 'string', description: `The agent type to start: ${names.join(', ')}.` },
      },
      required: ['description', 'prompt'],
      additionalProperties: false,
    },
    access: () => ({ reads: [], writes: [] }),
    risk: { category: 'other' },
    timeoutMs: TASK_TIMEOUT_MS,
    summarize: (input) => `${input.subagent_type ?? DEFAULT_TYPE}: ${input.description}`,
    async handler(input, context) {
      const typeName = input.subagent_type ?? DEFAULT_TYPE;
      const type = catalog.types.get(typeName);
      if (!type)
        return errorResult(
          'ASSISTANT_AGENT_UNKNOWN',
          `There is no agent type "${typeName}". Available types: ${names.join(', ')}. Call Task again with one of them as subagent_type.`,
        );
      const depth = (context.agentId ? (depths.get(context.agentId) ?? 1) : 0) + 1;
      if (depth > MAX_DEPTH)
        return errorResult(
          'ASSISTANT_AGENT_DEPTH',
          `Sub-agents may nest ${MAX_DEPTH} deep and this one would be level ${depth}, so it was not started. Do this part of the work yourself.`,
        );
      const { runSubAgent, agentReport } = await subAgents();
      const agentId = `${type.name}-${++started}`;
      depths.set(agentId, depth);
      try {
        const outcome = await runSubAgent(kernel, { type, agentId, prompt: input.prompt, caller: context });
        // The runtime stops a call past its time limit through the same signal as an interrupt, saying which.
        const timedOut = outcome.result.reason === 'aborted' && (context.signal.reason as Error | undefined)?.message === 'timeout';
        return agentReport(agentId, type.name, outcome, timedOut);
      } finally {
        depths.delete(agentId);
      }
    },
  };
}
