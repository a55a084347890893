import { join } from 'node:path';
import { definePlugin, formatError, Stage, userDirs } from '../../core/index.js';
import { optionsSchema, type AgentsOptions } from './agent-type.js';
import { loadCatalog, projectAgentDir } from './catalog.js';
import { taskTool } from './task-tool.js';
import { TASK_TOOL } from './tool-patterns.js';
import { AGENTS_ERRORS } from './errors.js';

/**
 * Sub-agents: the Task tool starts a fresh agent of a chosen type (config `agents`, agent files
 * in `.assistant/agents/*.md` and the user's config dir, or the built-in read-only `general`),
 * runs it on the kernel's loop with its own tools, mode and budget, and returns its report.
 */
export default definePlugin<AgentsOptions>({
  name: 'agents',
  errors: AGENTS_ERRORS,
  version: '1.0.0',
  configKey: 'agents',
  optionsSchema,
  apply(kernel, options, { logger }) {
    kernel.hooks.registerTools.tapPromise('agents', async (registry) => {
      const catalog = await loadCatalog(options, {
        userDir: join(userDirs().config, 'agents'),
        projectDir: projectAgentDir(kernel.projectRoot),
        configSource: (name) => kernel.resolvedConfig.sources[`/agents/${name}`] ?? kernel.resolvedConfig.sources['/agents'] ?? 'config',
      });
      for (const problem of catalog.problems) logger.warn(formatError(problem));
      for (const line of catalog.ignored) logger.warn(`agent file ${line.replace(/: /, ': front matter keys ignored (not agent settings): ')}`);
      logger.debug(`agent types: ${[...catalog.types.values()].map((t) => `${t.name} (${t.source})`).join(', ')}`);
      registry.register(taskTool(kernel, catalog));
    });

    // Starting a sub-agent only runs tool calls that each pass permission themselves, so Task needs
    // no approval. After the deny/ask rules (a rule can still stop or question it), before the mode
    // (plan mode may start read-only research agents).
    kernel.hooks.permission.tapPromise({ name: 'agents', stage: Stage.TOOL_POLICY }, async (request) =>
      request.tool === TASK_TOOL
        ? { behavior: 'allow', layer: 'agents', reason: "a sub-agent's own tool calls each pass permission; starting one needs none" }
        : undefined,
    );
  },
});
