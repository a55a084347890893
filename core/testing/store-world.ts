// The conformance suite's test world: stores opened per test (live or played by a real child
// process that can be killed), a writer that appends as the kernel does, and small fixtures.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { applySessionEvent, emptySnapshot } from '../kits/store/index.js';
import { projectHash } from '../util/paths.js';
import type { Message } from '../types/messages.js';
import type { SessionEvent, SessionOwner, SessionSnapshot, SessionStore } from '../types/session.js';
import type { SessionStoreFactory } from './store-conformance.js';

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], meta: { time: 1, origin: 'user' } });
export const reply = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
export const texts = (snapshot: SessionSnapshot | undefined) => snapshot?.messages.map((m) => (m.content[0] as { text: string }).text);
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for clocks and file times to tell two writes apart; nothing asserts on elapsed time. */
export const TICK_MS = 40;

/** One test's world: its scope, projects and the stores it opened (closed after the test). */
export class World {
  readonly scope = `conformance-${randomBytes(6).toString('hex')}`;
  readonly root = join(tmpdir(), 'assistant-conformance', this.scope);
  readonly project = join(this.root, 'app');
  readonly otherProject = join(this.root, 'lib');
  private readonly opened: SessionStore[] = [];
  private readonly children: Array<ReturnType<typeof spawn>> = [];

  constructor(private readonly factory: SessionStoreFactory) {}

  /** A store played by a live process named `name` (this test process, its own surface). */
  async store(name: string): Promise<SessionStore> {
    return this.open({ surface: `${name}@conformance:/dev/pts/${this.opened.length + 1}`, pid: process.pid, host: hostname(), since: Date.now() });
  }

  /** A store played by a real child process, and a way to kill that process (SIGKILL: nothing is released). */
  async mortalStore(name: string): Promise<{ store: SessionStore; owner: SessionOwner; kill(): Promise<void> }> {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    this.children.push(child);
    await new Promise<void>((resolve, reject) => child.once('spawn', resolve).once('error', reject));
    const owner: SessionOwner = { surface: `${name}@conformance (pid ${child.pid})`, pid: child.pid!, host: hostname(), since: Date.now() };
    const kill = () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    return { store: await this.open(owner), owner, kill };
  }

  private async open(owner: SessionOwner): Promise<SessionStore> {
    const store = await this.factory({ scope: this.scope, owner });
    this.opened.push(store);
    return store;
  }

  async dispose(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    for (const store of this.opened.reverse()) await store.close().catch(() => undefined);
  }
}

/** A session as the kernel writes it: each event applied to the live state, then appended with that state's info. */
export class Writer {
  readonly state: SessionSnapshot;

  constructor(
    private readonly store: SessionStore,
    projectRoot: string,
    id: string = randomUUID(),
  ) {
    const now = Date.now();
    this.state = emptySnapshot({ id, projectRoot, projectHash: projectHash(projectRoot), createdAt: now, lastActiveAt: now, provider: 'conformance', model: 'm1', mode: 'default' });
  }

  get id(): string {
    return this.state.info.id;
  }

  /** What the kernel does for a new session: claim it, then record its start. */
  async start(): Promise<this> {
    await this.store.acquire(this.id);
    await this.write({ type: 'session_start', info: { ...this.state.info } });
    return this;
  }

  async write(event: SessionEvent): Promise<void> {
    applySessionEvent(this.state, event, Date.now());
    await this.store.append(event, { ...this.state.info });
  }

  /** One exchange and the checkpoint at the end of the turn. */
  async turn(text: string): Promise<void> {
    await this.write({ type: 'message', message: user(text) });
    await this.write({ type: 'message', message: reply(`re: ${text}`) });
    await this.write({ type: 'checkpoint', reason: 'turn_end' });
  }
}

/** Three ids sharing an 8-character prefix (and unique from their 10th character on), and the prefix. */
export function siblingIds(): { prefix: string; ids: [string, string, string] } {
  const prefix = randomBytes(4).toString('hex');
  const id = (n: number) => `${prefix}-${n}000-4000-8000-000000000000`;
  return { prefix, ids: [id(1), id(2), id(3)] };
}
