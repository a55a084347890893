/**
 * The `assistant acp` command's body: the ACP SDK and the agent behind it, imported only when the
 * command runs (every other run loads the plugin but never serves the protocol).
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { PACKAGE_NAME, type Kernel, type LogLevel } from '../../core/index.js';
import { setSurface } from '../../core/kits/agent/index.js';
import { acpAgent } from './server.js';
import { VERSION } from './version.js';

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
export async function serveStdio(kernel: Kernel): Promise<number> {
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
