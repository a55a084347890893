/**
 * The sandbox's network cut, made visible: the tool description says whether commands have
 * network, a command that failed on DNS or a connection gets a note saying why, and a call that
 * asks for network (`network: true`) always goes to a person, then runs once with network but
 * otherwise sandboxed.
 */
import { Stage, type PermissionDecision, type PermissionRequest } from '../../core/index.js';

/** What commands run under, as far as the network goes. */
export type NetworkState = 'unsandboxed' | 'network' | 'no-network';

/** The line of the tool description about the network, from the settings in force. */
export function networkLine(state: NetworkState): string {
  if (state === 'unsandboxed') return '- Commands run without an OS sandbox, with network access.';
  if (state === 'network') return '- Commands run in an OS sandbox (the project and the temp directory writable, the agent\'s own config files read-only) with network access.';
  return '- Commands run in an OS sandbox (the project and the temp directory writable, the agent\'s own config files read-only) WITHOUT network access: DNS lookups and connections fail. When a command needs the network (installing packages, fetching), set `"network": true` on that call; the user is asked, and only that command gets network.';
}

/**
 * The permission layer for `network: true`: after hard blocks and deny/ask rules, before the mode,
 * allow rules and the classifier, so no mode but bypass lets it through without a person (headless
 * it is denied). `applies` says whether the flag changes anything (the sandbox is on and cuts the network).
 */
export function networkPermission(tool: string, applies: () => boolean) {
  return {
    stage: Stage.TOOL_POLICY,
    layer: async (request: PermissionRequest): Promise<PermissionDecision | undefined> => {
      if (request.tool !== tool || request.input.network !== true || request.mode === 'bypass' || !applies()) return undefined;
      // Plan mode runs only what is proven read-only: reaching the network is not that, so nobody is asked.
      if (request.mode === 'plan')
        return { behavior: 'deny', layer: 'tool-bash:network', reason: 'plan mode is read-only: a command that needs the network cannot run in it; leave plan mode to run it' };
      return {
        behavior: 'ask',
        layer: 'tool-bash:network',
        reason: `the command asks to run once WITH network access, outside the sandbox's network cut (otherwise sandboxed): ${String(request.command ?? '')}`,
      };
    },
  };
}
