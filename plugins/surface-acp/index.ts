import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { definePlugin, PACKAGE_NAME, type Kernel, type LogLevel } from '../../core/index.js';
import { SURFACE_ACP_ERRORS } from './errors.js';
import { setSurface } from '../../core/kits/agent/index.js';
import { acpAgent } from './server.js';

const VERSION = '0.1.0';

/** The package's version (the built plugin sits at dist/plugins/surface-acp/), else the plugin's. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name?: string; version?: string };
    return pkg.name === PACKAGE_NAME && pkg.version ? pkg.version : VERSION;
  } catch {
    return VERSION;
  }
}

/**
 * stdout carries the protocol alone: anything else written there (a plugin's stray print) goes to
 * stderr. Returns the writer of the protocol's lines and the undo.
 */
function claimStdout(): { output: WritableStream<Uint8Array>; release(): void } {
  const original = process.stdout.write;
  const write = original.bind(process.stdout) as (chunk: Uint8Array, callback: (error?: Error | null) => void) => boolean;
  process.stdout.write = ((...args: Parameters<typeof process.stderr.write>) => process.stderr.write(...args)) as typeof process.stdout.write;
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => void write(chunk, (error) => (error ? reject(error) : resolve()))),
  });
  return { output, release: () => void (process.stdout.write = original) };
}

/** Serves the Agent Client Protocol on stdin/stdout until the editor closes the connection. */
async function serveStdio(kernel: Kernel): Promise<number> {
  setSurface('acp');
  const logLevel = (process.env.ASSISTANT_LOG_LEVEL as LogLevel | undefined) ?? 'warn';
  const agent = acpAgent(kernel, { name: 'assistant', version: packageVersion() }, logLevel);
  const stdout = claimStdout();
  try {
    const connection = agent.app.connect(acp.ndJsonStream(stdout.output, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
    // An editor that stops the agent with a signal still gets its sessions flushed and their leases released.
    const stop = () => connection.close();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    try {
      await connection.closed.catch(() => undefined);
    } finally {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    }
  } finally {
    await agent.closeAll();
    stdout.release();
  }
  return 0;
}

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
        action: () => serveStdio(kernel),
      }),
    );
  },
});
