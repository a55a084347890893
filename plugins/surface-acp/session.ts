import * as acp from '@agentclientprotocol/sdk';
import { isInside, realPath, type Kernel, type LogLevel } from '../../core/index.js';
import { kernelForSurface, startDrivenSession, watchLease, type LeaseLoss, type SessionDriver } from '../../core/kits/agent/index.js';
import { clientFilesFor, clientFilesPlugin } from './client-files.js';
import { eventMapper, historyUpdates } from './events.js';
import { askEditor } from './permission.js';
import { modeState, checkMode } from './modes.js';
import { promptText, type Prompt } from './prompt.js';
import type { CallScope } from './tool-calls.js';

/** What every session of one connection shares. */
export interface ConnectionScope {
  /** The kernel `assistant acp` booted: its configuration is every session's. */
  outer: Kernel;
  /** The editor, for notifications and requests. */
  client: acp.AgentContext;
  /** What the editor offered in `initialize` (its `fs` methods). */
  capabilities?: acp.ClientCapabilities;
  logLevel: LogLevel;
}

/** One ACP session: our session, on a kernel of its own, driven for the editor. */
export interface AcpSession {
  readonly id: string;
  readonly driver: SessionDriver;
  /** Where the session went when another surface took it over; undefined while this agent holds it. */
  readonly lostTo: LeaseLoss | undefined;
  /** Runs a prompt; resolves with the stop reason once every update about it was sent. */
  prompt(blocks: acp.ContentBlock[]): Promise<acp.StopReason>;
  /** Sends the whole history (session/load). */
  replay(): Promise<void>;
  /** The permission modes offered and the one in force. */
  modes(): acp.SessionModeState;
  /** Switches the permission mode (from the next tool call on). */
  setMode(modeId: string): void;
  /** Ends the running prompt (`cancelled`). */
  cancel(): void;
  /** Shuts its kernel down (the store flushes, the lease is released). */
  close(): Promise<void>;
}

/** Slash commands of the terminal UI only make sense there. */
const TERMINAL_ONLY = 'ui-terminal';

const requestError = (code: string, message: string) => new acp.RequestError(-32602, `${code}: ${message}`, { code });

/** The session's directory, which must be the project `assistant acp` serves or inside it (fails closed). */
export function checkCwd(cwd: string, projectRoot: string): void {
  if (typeof cwd !== 'string' || !cwd.startsWith('/')) throw requestError('ASSISTANT_ACP_CWD_OUTSIDE', `cwd must be an absolute path (got ${JSON.stringify(cwd)})`);
  if (!isInside(realPath(cwd), projectRoot))
    throw requestError('ASSISTANT_ACP_CWD_OUTSIDE', `${cwd} is outside the project this agent serves (${projectRoot}); start \`assistant acp\` in that project`);
}

/** Opens a session (new, or `resumeId` from the store) on a fresh kernel with the connection's configuration. */
export async function openAcpSession(scope: ConnectionScope, resumeId?: string): Promise<AcpSession> {
  // A kernel of its own: plugins keep per-session state on the kernel (todos, grants), and this one has someone to ask (the editor).
  let id = '';
  const files = clientFilesFor(scope.client, scope.capabilities, () => id);
  const kernel = await kernelForSurface(scope.outer, {
    logLevel: scope.logLevel,
    extraPlugins: files.read || files.write ? [{ plugin: clientFilesPlugin(files), options: {}, source: 'assistant acp', listedIn: 'assistant acp (the editor offers fs)' }] : [],
  });
  try {
    const session = await startSession(kernel, scope, resumeId);
    id = session.id;
    return session;
  } catch (error) {
    await kernel.shutdown('error').catch(() => undefined);
    throw error;
  }
}

async function startSession(kernel: Kernel, scope: ConnectionScope, resumeId: string | undefined): Promise<AcpSession> {
  // An ACP session id is exact: no prefix matching, as `--resume` allows.
  if (resumeId !== undefined && !(await kernel.store().resolve(resumeId, kernel.projectRoot)).includes(resumeId))
    throw requestError('ASSISTANT_ACP_SESSION_UNKNOWN', `no stored session has the id ${resumeId}`);
  const calls: CallScope = { projectRoot: kernel.projectRoot, cwd: kernel.cwd, tool: (name) => kernel.tools.get(name) };
  let id = ''; // known once the session is open, before any prompt runs
  // Updates go out in the order things happened; a prompt answers only after its last one.
  let sent: Promise<void> = Promise.resolve();
  const send = (update: acp.SessionUpdate) => {
    sent = sent.then(() => scope.client.notify('session/update', { sessionId: id, update })).catch((error: unknown) => kernel.logger.warn(`session/update failed: ${(error as Error).message}`));
  };
  const driver = await startDrivenSession(kernel, {
    resume: resumeId,
    onEvent: eventMapper(calls, send),
    approve: (items, signal) => askEditor(id, items, calls, (params, s) => scope.client.request('session/request_permission', params, { cancellationSignal: s, stopWaitingOnCancel: true }), signal),
  });
  id = driver.sessionId;
  const session = driver.runner.session;
  // Another surface taking the session stops the running prompt; the next one is refused, naming where it went.
  let lostTo: LeaseLoss | undefined;
  const lease = watchLease(kernel, (loss) => {
    lostTo = loss;
    driver.interrupt();
  });
  const startMode = session.mode;

  const slash = kernel.commands.listSlash().filter((c) => (c as { plugin?: string }).plugin !== TERMINAL_ONLY);
  send({
    sessionUpdate: 'available_commands_update',
    availableCommands: slash.map((c) => ({ name: c.name, description: c.description, ...(c.usage ? { input: { hint: c.usage } } : {}) })),
  });

  async function runSlash(name: string, args: string): Promise<acp.StopReason> {
    const command = slash.find((c) => c.name === name)!;
    const print = (text: string) => send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: text.endsWith('\n') ? text : `${text}\n` } });
    try {
      const out = await command.run(args, { print, sessionId: id });
      if (out) print(out);
    } catch (error) {
      print(`/${name} failed: ${(error as Error)?.message ?? error}`);
    }
    return 'end_turn';
  }

  return {
    id,
    driver,
    get lostTo() {
      return lostTo;
    },
    async prompt(blocks) {
      const loss = await lease.check();
      if (loss)
        throw new acp.RequestError(
          -32600,
          `ASSISTANT_ACP_LEASE_LOST: session ${loss.sessionId.slice(0, 8)} continued in ${loss.where}; this editor no longer sends prompts to it. Load it again (session/load) once it is closed there`,
          { code: 'ASSISTANT_ACP_LEASE_LOST', where: loss.where },
        );
      if (driver.runner.busy) throw new acp.RequestError(-32600, 'ASSISTANT_ACP_BUSY: this session is working on a prompt; cancel it first', { code: 'ASSISTANT_ACP_BUSY' });
      const prompt: Prompt = promptText(blocks);
      if (prompt.slash && slash.some((c) => c.name === prompt.slash!.name)) {
        const reason = await runSlash(prompt.slash.name, prompt.slash.args);
        await sent;
        return reason;
      }
      const result = await driver.run(prompt.text);
      await lease.check(); // a new session's lease is claimed by its first run: known held from now on
      await sent;
      if (result.reason === 'error') throw new acp.RequestError(-32603, `${result.error?.code ?? 'ASSISTANT_INTERNAL'}: ${result.message ?? result.error?.message ?? 'the run failed'}`, { code: result.error?.code });
      return STOP_REASON[result.reason];
    },
    async replay() {
      for (const update of historyUpdates(session.messages, calls)) send(update);
      await sent;
    },
    modes: () => modeState(session.mode, startMode),
    setMode(modeId) {
      session.mode = checkMode(modeId, startMode);
    },
    cancel: () => driver.interrupt(),
    async close() {
      lease.stop();
      driver.close();
      await sent;
      await kernel.shutdown('done').catch(() => undefined);
    },
  };
}

const STOP_REASON = { completed: 'end_turn', aborted: 'cancelled', max_turns: 'max_turn_requests', budget: 'max_tokens', tool_failures: 'end_turn' } as const;
