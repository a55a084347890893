import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import { isSafeCommand, type Policy } from '../policy/index.js';

/** A shell command proven safe on a real parse: every simple command only reads inside the project (or runs the tests). */
export async function classifyLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  const facts = await policy.facts(request);
  const shell = facts.shell;
  if (!shell || shell.concerns.length || !shell.commands.length) return undefined;
  if (!shell.commands.every((c) => isSafeCommand(c, policy.options.trustTestCommands))) return undefined;
  if (facts.reads.some((f) => !f.inside) || facts.writes.length) return undefined;
  const tests = shell.commands.some((c) => c.risk === 'test');
  return { behavior: 'allow', layer: 'classifier', reason: tests ? 'runs the project tests or checks and otherwise only reads' : 'every command only reads inside the project' };
}
