import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import { type Policy, type RequestFacts, suggestRule, whyUnsafe } from '../policy/index.js';

function reasonFor(request: PermissionRequest, facts: RequestFacts, trustTests: boolean): string {
  const shell = facts.shell;
  if (shell) {
    const text = shell.source.length > 120 ? shell.source.slice(0, 117) + '...' : shell.source;
    if (shell.concerns.length) return `\`${text}\` ${shell.concerns[0]}, so it cannot be proven safe`;
    for (const command of shell.commands) {
      const why = whyUnsafe(command, trustTests);
      if (why) return why;
    }
  }
  const outsideRead = facts.reads.find((f) => !f.inside);
  if (outsideRead) return `${request.tool} reads outside the project: ${outsideRead.real ?? outsideRead.raw + ' (location only known at run time)'}`;
  const write = facts.writes.find((f) => f.protected) ?? facts.writes.find((f) => !f.real);
  if (write?.protected) return `${request.tool} ${write.protected}`;
  if (write) return `${request.tool} writes to ${write.raw}, whose location is only known at run time`;
  if (request.category === 'edit') return `${request.tool} changes ${facts.writes.map((f) => f.raw).join(', ') || 'files'}`;
  if (request.category === 'network') return `${request.tool} reaches the network`;
  if (request.category === 'execute') return `${request.tool} runs a command`;
  return `${request.tool} needs approval`;
}

/** No layer allowed the call: a person must approve it (headless mode turns this into a denial). */
export async function fallbackLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  const facts = await policy.facts(request);
  const suggestedRule = suggestRule(request, facts, policy.matchContext(request, facts));
  return { behavior: 'ask', layer: 'default', reason: reasonFor(request, facts, policy.options.trustTestCommands), ...(suggestedRule ? { suggestedRule } : {}) };
}
