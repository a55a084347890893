// An editor for tests: the ACP SDK's own client-side connection, talking to the built
// `assistant acp` over its stdin/stdout, with a scriptable answer to permission requests.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { CLI } from '../support/cli.js';

export interface Editor {
  readonly child: ChildProcessWithoutNullStreams;
  readonly agent: acp.ClientContext;
  /** Every session/update received, in order. */
  readonly updates: acp.SessionNotification[];
  /** Every session/request_permission received, in order. */
  readonly permissionRequests: acp.RequestPermissionRequest[];
  /** How the next permission requests are answered (default: cancelled). */
  answer: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  /** The editor's unsaved buffers (path → text), answered to fs/read_text_file; other paths fail. */
  buffers: Map<string, string>;
  /** Every fs/read_text_file and fs/write_text_file received, in order. */
  readonly fsRequests: Array<{ method: string; path: string; content?: string }>;
  /** Called on each update as it arrives. */
  onUpdate?: (update: acp.SessionNotification) => void;
  stderr(): string;
  /** Closes the connection and waits for the agent to exit; returns its exit code. */
  close(): Promise<number | null>;
  /** Stops the agent with SIGTERM, as an editor quitting may; returns its exit code. */
  terminate(): Promise<number | null>;
}

/** Starts `assistant acp` in `cwd` and connects to it as an editor would. */
export function startEditor(cwd: string, env: NodeJS.ProcessEnv, args: string[] = []): Editor {
  const child = spawn(process.execPath, [CLI, 'acp', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const editor: Editor = {
    child,
    agent: undefined as unknown as acp.ClientContext,
    updates: [],
    permissionRequests: [],
    buffers: new Map(),
    fsRequests: [],
    answer: () => ({ outcome: { outcome: 'cancelled' } }),
    stderr: () => stderr,
    async close() {
      child.stdin.end();
      return exited;
    },
    async terminate() {
      child.kill('SIGTERM');
      return exited;
    },
  };
  const app = acp
    .client({ name: 'test-editor' })
    .onRequest('session/request_permission', ({ params }) => {
      editor.permissionRequests.push(params);
      return editor.answer(params);
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      editor.fsRequests.push({ method: 'read', path: params.path });
      const text = editor.buffers.get(params.path);
      if (text === undefined) throw new Error(`no buffer for ${params.path}`);
      return { content: text };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      editor.fsRequests.push({ method: 'write', path: params.path, content: params.content });
      return {};
    })
    .onNotification('session/update', ({ params }) => {
      editor.updates.push(params);
      editor.onUpdate?.(params);
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  (editor as { agent: acp.ClientContext }).agent = connection.agent;
  return editor;
}

/** The updates of one kind, typed. */
export function updatesOf<K extends acp.SessionUpdate['sessionUpdate']>(editor: Editor, kind: K, sessionId?: string): Array<Extract<acp.SessionUpdate, { sessionUpdate: K }>> {
  return editor.updates
    .filter((n) => !sessionId || n.sessionId === sessionId)
    .map((n) => n.update)
    .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
}

/** The text of the chunks of one kind, joined. */
export function chunkText(editor: Editor, kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk', sessionId?: string): string {
  return updatesOf(editor, kind, sessionId)
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}

/** Picks the option of that kind from a permission request. */
export function choose(kind: acp.PermissionOptionKind): (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse {
  return (request) => {
    const option = request.options.find((o) => o.kind === kind);
    if (!option) throw new Error(`no ${kind} option offered: ${JSON.stringify(request.options)}`);
    return { outcome: { outcome: 'selected', optionId: option.optionId } };
  };
}
