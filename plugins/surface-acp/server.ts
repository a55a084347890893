import * as acp from '@agentclientprotocol/sdk';
import type { Kernel, LogLevel } from '../../core/index.js';
import { setSurface } from '../../core/kits/agent/index.js';
import { checkCwd, openAcpSession, type AcpSession, type ConnectionScope } from './session.js';

/** The agent's name and version as the editor shows them. */
export interface AgentInfo {
  name: string;
  version: string;
}

/**
 * The ACP agent: `initialize`, `session/new` and `session/load` on our sessions (an ACP session id
 * is our session id), `session/prompt`, `session/cancel`. Each session gets a kernel of its own with
 * the configuration `assistant acp` loaded; all are shut down when the connection closes.
 */
export function acpAgent(outer: Kernel, info: AgentInfo, logLevel: LogLevel) {
  const sessions = new Map<string, AcpSession>();
  const opening = new Set<Promise<unknown>>();
  let client: acp.AgentContext | undefined;
  let capabilities: acp.ClientCapabilities | undefined;

  const scope = (): ConnectionScope => ({ outer, client: client!, capabilities, logLevel });
  const find = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session)
      throw new acp.RequestError(-32602, `ASSISTANT_ACP_SESSION_UNKNOWN: session ${sessionId} is not open on this connection; open it with session/new or session/load`, {
        code: 'ASSISTANT_ACP_SESSION_UNKNOWN',
      });
    return session;
  };
  /** Opens a session, tracked so a connection closing mid-open still shuts its kernel down. */
  const open = async (resumeId?: string): Promise<AcpSession> => {
    const pending = openAcpSession(scope(), resumeId);
    opening.add(pending);
    try {
      const session = await pending;
      sessions.set(session.id, session);
      return session;
    } finally {
      opening.delete(pending);
    }
  };

  const app = acp
    .agent({ name: info.name })
    .onConnect((connection) => {
      client = connection.client;
    })
    .onRequest('initialize', ({ params }) => {
      capabilities = params.clientCapabilities;
      // Leases taken from now on name the editor: "acp (Zed) on host ..." in the terminal that is refused.
      if (typeof params.clientInfo?.name === 'string') setSurface('acp', params.clientInfo.name);
      return {
        protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
        agentCapabilities: { loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: true }, sessionCapabilities: { close: {} } },
        agentInfo: info,
        authMethods: [],
      };
    })
    // No sign-in of our own (keys come from the environment and config); some editors call it anyway.
    .onRequest('authenticate', () => ({}))
    .onRequest('session/new', async ({ params }) => {
      checkCwd(params.cwd, outer.projectRoot);
      const session = await open();
      return { sessionId: session.id, modes: session.modes() };
    })
    .onRequest('session/load', async ({ params }) => {
      checkCwd(params.cwd, outer.projectRoot);
      let session = sessions.get(params.sessionId);
      // A session another surface took: loading it again claims it afresh (refused while held there).
      if (session?.lostTo) {
        sessions.delete(params.sessionId);
        await session.close();
        session = undefined;
      }
      session ??= await open(params.sessionId);
      await session.replay();
      return { modes: session.modes() };
    })
    .onRequest('session/prompt', async ({ params }) => ({ stopReason: await find(params.sessionId).prompt(params.prompt) }))
    .onRequest('session/set_mode', ({ params }) => {
      find(params.sessionId).setMode(params.modeId);
      return {};
    })
    // Closing frees the session's kernel and lease; the session stays stored (load it again later).
    .onRequest('session/close', async ({ params }) => {
      const session = find(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  return {
    app,
    /** Shuts every session's kernel down (stores flush, leases are released). */
    async closeAll(): Promise<void> {
      await Promise.allSettled([...opening]);
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
      sessions.clear();
    },
  };
}
