import type { Kernel } from '../../core/index.js';
import { openServedSession, forClient, type ServedSession } from './driver.js';
import { SERVE_ERRORS } from './errors.js';
import { ServeError } from './http-error.js';

/** A full session id: prefixes and anything else are refused before they reach a store. */
export const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The sessions this server drives (each with its own kernel and lease), and read-only looks at the others. */
export class ServedSessions {
  private readonly drivers = new Map<string, ServedSession>();
  private opening = 0;

  constructor(
    private readonly base: Kernel,
    private readonly options: { maxSessions: number; leaseCheckMs: number },
  ) {}

  get(id: string): ServedSession | undefined {
    return this.drivers.get(id);
  }

  /** Starts a new session. */
  create(): Promise<ServedSession> {
    return this.open(undefined, false);
  }

  /**
   * Drives a stored session here: claims its lease (a live holder elsewhere refuses, with where it
   * is held, unless `takeOver`). Already driven and still held: the same driver.
   */
  async attach(id: string, takeOver: boolean): Promise<ServedSession> {
    const current = this.drivers.get(id);
    if (current && !current.lostTo) return current;
    if (current) {
      if (!takeOver) return current; // its clients are told where it went; prompting it is refused
      this.drivers.delete(id);
      await current.close();
    }
    return this.open(id, takeOver);
  }

  private async open(resume: string | undefined, takeOver: boolean): Promise<ServedSession> {
    if (this.drivers.size + this.opening >= this.options.maxSessions)
      throw new ServeError(429, SERVE_ERRORS.ASSISTANT_SERVE_TOO_MANY_SESSIONS, `this server drives ${this.options.maxSessions} sessions already; detach one first`);
    this.opening++;
    try {
      const driver = await openServedSession(this.base, { resume, takeOver, leaseCheckMs: this.options.leaseCheckMs });
      const raced = this.drivers.get(driver.id);
      if (raced) {
        await driver.close();
        return raced;
      }
      this.drivers.set(driver.id, driver);
      return driver;
    } finally {
      this.opening--;
    }
  }

  /** Stops driving a session and releases its lease. */
  async detach(id: string): Promise<boolean> {
    const driver = this.drivers.get(id);
    if (!driver) return false;
    this.drivers.delete(id);
    await driver.close();
    return true;
  }

  /** The project's stored sessions, newest first, saying which this server drives. */
  async list(): Promise<Record<string, unknown>[]> {
    // Sessions that are not stored (persistence.store "none") are only the ones driven here.
    const stored = this.base.config.persistence?.store !== 'none';
    const rows = stored ? await this.base.store().list({ projectRoot: this.base.projectRoot, limit: 100 }) : [];
    const listed = rows.map((r) => ({
      id: r.id,
      title: r.title,
      last_active_at: r.lastActiveAt,
      message_count: r.messageCount,
      model: r.model,
      in_use_by: r.inUseBy,
      attached: this.drivers.has(r.id),
      lost_to: this.drivers.get(r.id)?.lostTo,
    }));
    // A session started here and not yet written (no prompt yet) is listed too.
    for (const [id, driver] of this.drivers) if (!listed.some((r) => r.id === id)) listed.unshift({ id, attached: true, lost_to: driver.lostTo } as (typeof listed)[number]);
    return listed;
  }

  /**
   * A session as a client draws it: live when driven here, else its stored history (read-only),
   * which is also what a session taken over elsewhere shows: the new holder's turns included.
   */
  async view(id: string): Promise<Record<string, unknown>> {
    const driver = this.drivers.get(id);
    if (driver && !driver.lostTo) return driver.view();
    const snapshot = await this.base.store().load({ kind: 'id', id, projectRoot: this.base.projectRoot });
    if (!snapshot) throw new ServeError(404, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, `no stored session ${id}`);
    return {
      id,
      title: snapshot.info.title,
      provider: snapshot.info.provider,
      model: snapshot.info.model,
      attached: false,
      busy: false,
      ...(driver ? { lost_to: driver.lostTo } : {}),
      messages: snapshot.messages.map(forClient),
      todos: snapshot.todos,
      approvals: [],
      context: { usage: snapshot.usage },
    };
  }

  async closeAll(): Promise<void> {
    const all = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.all(all.map((d) => d.close()));
  }
}
