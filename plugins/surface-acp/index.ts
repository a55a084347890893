import { definePlugin, lazyImport } from '../../core/index.js';
import { SURFACE_ACP_ERRORS } from './errors.js';
import { VERSION } from './version.js';

/** The ACP server and its SDK (with zod), imported when `assistant acp` runs, never on another command's path. */
const acpServer = lazyImport('surface-acp', 'ACP server', () => import('./stdio.js'));

/**
 * `assistant acp`: the agent for editors that speak the Agent Client Protocol (Zed, JetBrains IDEs,
 * Neovim plugins). Sessions are ours: one started in an editor resumes in the terminal and back.
 */
export default definePlugin({
  name: 'surface-acp',
  version: VERSION,
  errors: SURFACE_ACP_ERRORS,
  apply(kernel) {
    kernel.hooks.commands.tap('surface-acp', (registry) =>
      registry.addCli({
        name: 'acp',
        description: 'serve the Agent Client Protocol on stdin/stdout, for editors (Zed, JetBrains, Neovim); see docs/surfaces.md',
        action: async () => (await acpServer()).serveStdio(kernel),
      }),
    );
  },
});
