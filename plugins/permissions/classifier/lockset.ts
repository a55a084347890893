import { resolve } from 'node:path';
import type { Kernel, LockContext, LockSet, ToolCallPart, ToolDefinition } from '../../../core/index.js';
import { permissionEngine } from '../policy/lazy.js';
import { policyOf } from '../policy/shared.js';

/**
 * Proves a shell command read-only for the scheduler, so it can run beside other reads: every
 * command only reads, inside the project. Abstains (the tool's own lock set: write everything)
 * when in doubt, or before the engine and its parser have loaded (the permission check, which runs
 * before the scheduler asks, loads both; this hook is synchronous, so it never loads them itself).
 */
export function readOnlyLockSet(kernel: Kernel) {
  return (call: ToolCallPart, definition: ToolDefinition<any>, context: LockContext): LockSet | undefined => {
    const policy = policyOf(kernel);
    const engine = permissionEngine.loaded();
    if (!policy || !engine || definition.risk?.category !== 'execute' || !definition.risk.command) return undefined;
    let command: string | undefined;
    try {
      command = definition.risk.command(call.input);
    } catch {
      return undefined;
    }
    if (typeof command !== 'string' || command.includes('\0')) return undefined;
    const shell = engine.analyzeShellSync(command, { cwd: context.cwd, home: policy.home, allowSudo: policy.options.allowSudo, trustTests: false });
    if (!shell || shell.concerns.length || shell.blocks.length || !shell.commands.length) return undefined;
    if (!shell.commands.every((c) => c.risk === 'read' && engine.isSafeCommand(c, false))) return undefined;
    // Every read (and every directory a command runs in) must be inside the project.
    const within = (path: string) => engine.isWithin(path, context.projectRoot);
    const inside = shell.commands.every(
      (c) => c.cwd !== null && within(c.cwd) && c.reads.every((p) => p.arg.value !== null && !p.arg.value.startsWith('~') && p.cwd !== null && within(resolve(p.cwd, p.arg.value))),
    );
    return inside ? { reads: [context.projectRoot], writes: [] } : undefined;
  };
}
