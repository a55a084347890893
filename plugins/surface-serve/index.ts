import { definePlugin, lazyImport } from '../../core/index.js';
import { SERVE_ERRORS } from './errors.js';
import type { ServeFlags } from './serve-command.js';

/** The server, its routes and the diff library, imported when `assistant serve` runs, not on every start. */
const serveCommand = lazyImport('surface-serve', 'server', () => import('./serve-command.js'));

/**
 * `assistant serve`: a local HTTP server and web UI driving this project's sessions (list, create,
 * attach, prompt, interrupt, approvals, an SSE event stream in the stream-json schema), behind a
 * token, its own Origin and Host, and the session lease (one active surface per session).
 */
export default definePlugin({
  name: 'surface-serve',
  version: '0.1.0',
  errors: SERVE_ERRORS,
  apply(kernel, _options, { logger }) {
    kernel.hooks.commands.tap('surface-serve', (registry) =>
      registry.addCli({
        name: 'serve',
        description: 'serve a local web UI and HTTP API for this project\'s sessions (127.0.0.1, token-protected)',
        options: [
          { flags: '--port <n>', description: 'port to listen on (0, the default, picks a free one)' },
          { flags: '--host <address>', description: 'address to bind (default 127.0.0.1; others need --allow-remote)' },
          { flags: '--allow-remote', description: 'allow binding an address other machines can reach' },
        ],
        action: async (_args, options) => (await serveCommand()).runServe(kernel, options as ServeFlags, logger),
      }),
    );
  },
});
