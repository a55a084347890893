import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import { isReadOnlyScript, isSafeCommand, type Policy, type RequestFacts } from '../policy/index.js';

const layer = 'mode';
/** Shell commands that only create, copy or move files: acceptEdits lets them run inside the project. */
const FILE_EDIT_COMMANDS = new Set(['mkdir', 'touch', 'cp', 'mv']);

function editsStayInProject(facts: RequestFacts): boolean {
  return facts.writes.length > 0 && facts.writes.every((f) => f.real && f.inside && !f.protected);
}

function planRefusal(request: PermissionRequest, facts: RequestFacts): string | undefined {
  if (request.category === 'edit') return `${request.tool} changes files`;
  if (request.category === 'other') return `${request.tool} may change things`;
  if (request.category !== 'execute') return undefined;
  if (!facts.shell) return `${request.tool} runs something that cannot be judged`;
  // Plan mode runs only what is proven read-only; anything unexplained could write.
  if (isReadOnlyScript(facts.shell)) return undefined;
  const culprit = facts.shell.commands.find((c) => c.risk !== 'read' || c.writes.length || c.writesUnknown || c.localProgram || c.concerns.length);
  if (!culprit) return `\`${facts.shell.source}\` cannot be proven read-only (${facts.shell.concerns[0]})`;
  if (culprit.writes.length && culprit.risk === 'read') return `${culprit.reason}, but it writes to ${culprit.writes[0]!.arg.template.replaceAll('\u0000', '…')}`;
  return culprit.risk === 'read' ? `it cannot be proven read-only: ${culprit.concerns[0]}` : culprit.reason;
}

/** The permission mode: plan refuses writes, bypass allows what the guard let through, acceptEdits allows edits inside the project; reads inside the project are allowed in every mode. */
export async function modeLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  // The agent's own plan touches nothing on the machine: every mode, plan included, lets it change.
  if (request.category === 'state') return { behavior: 'allow', layer, reason: `${request.tool} changes only the agent's own plan` };
  const facts = await policy.facts(request);
  if (request.mode === 'plan') {
    const why = planRefusal(request, facts);
    if (why) return { behavior: 'deny', layer, reason: `plan mode is read-only and ${why}; finish the plan, then ask the user to leave plan mode` };
  }
  if (request.mode === 'bypass') return { behavior: 'allow', layer, reason: 'bypass mode allows everything that is not hard-blocked' };
  // The agent must not widen its own controls: a person approves each such write, whatever the
  // mode or allow rules say (no rule is suggested, so no "always" answer can make it silent).
  const control = policy.controlWrite(request, facts);
  if (control)
    return {
      behavior: 'ask',
      layer,
      reason: `${request.tool} changes a file that steers assistant itself (${control}); only a person can approve that`,
      hint: 'approve it in an interactive session',
    };
  if (request.category === 'read' && !facts.shell && facts.reads.length && facts.reads.every((f) => f.inside))
    return { behavior: 'allow', layer, reason: 'reads inside the project are allowed' };
  if (request.mode === 'acceptEdits') {
    if (request.category === 'edit' && !facts.shell && editsStayInProject(facts))
      return { behavior: 'allow', layer, reason: 'acceptEdits mode allows edits inside the project' };
    const shell = facts.shell;
    if (shell && !shell.concerns.length && editsStayInProject(facts) && facts.reads.every((f) => f.inside)) {
      const fileEdits = shell.commands.every((c) => isSafeCommand(c, policy.options.trustTestCommands) || (c.name !== null && FILE_EDIT_COMMANDS.has(c.name) && !c.concerns.length && !c.writesUnknown));
      if (fileEdits) return { behavior: 'allow', layer, reason: 'acceptEdits mode allows creating, copying and moving files inside the project' };
    }
  }
  return undefined;
}
