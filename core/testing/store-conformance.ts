import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { projectHash } from '../util/paths.js';
import type { SessionOwner, SessionSnapshot, SessionStore } from '../types/session.js';
import { World, Writer, siblingIds, user, reply, texts, pause, TICK_MS } from './store-world.js';

/**
 * vitest, an optional peer, when this runs inside it: its test threads publish their API on the
 * global the in-source tests' `import.meta.vitest` reads. Not imported here: the kit works under
 * any runner, and the bundled runtime (CommonJS) has no top-level await.
 */
const runningVitest = () => (globalThis as { __vitest_index__?: typeof import('vitest') }).__vitest_index__;

/** What the conformance suite tells a store factory. */
export interface SessionStoreFactoryContext {
  /**
   * The same for every store one test opens (they play separate processes sharing one backend:
   * same directory, database or key prefix) and new for each test (fresh, empty data).
   */
  scope: string;
  /** The process this store plays: record it as the holder of the leases it takes (surface, pid, host). */
  owner: SessionOwner;
}

/** Opens a store for the conformance suite. */
export type SessionStoreFactory = (context: SessionStoreFactoryContext) => SessionStore | Promise<SessionStore>;

/** Store-specific abilities the suite uses when given. */
export interface SessionStoreSuiteOptions {
  /**
   * Leaves a half-written record after the last complete one of `sessionId`, as a process killed
   * in the middle of an append would. Omit it when appends are atomic (a transaction, one Redis
   * command): the crash case is then skipped, saying so.
   */
  tearLastRecord?(context: { scope: string; sessionId: string; projectRoot: string }): void | Promise<void>;
  /** Timeout of each case in ms (default 60,000: machines running the suite may be busy). */
  timeout?: number;
}

/**
 * The SessionStore conformance suite (docs/sessions.md, "Writing a store"), as a vitest `describe`
 * block: run it from a test file with a factory that opens your store. Every case gets a new
 * `scope`; stores opened with the same scope must share their data, as processes on one machine
 * or one server would.
 *
 * ```ts
 * describeSessionStore('my-store', ({ scope, owner }) => createMyStore({ dir: join(base, scope), owner }));
 * ```
 */
export function describeSessionStore(name: string, factory: SessionStoreFactory, options: SessionStoreSuiteOptions = {}): void {
  const vitest = runningVitest();
  if (!vitest) throw new Error('describeSessionStore runs under vitest: install it (npm install --save-dev vitest) and run the file with vitest');
  const { describe, it, expect, afterEach } = vitest;
  const timeout = options.timeout ?? 60_000;
  let world: World | undefined;
  const fresh = () => (world = new World(factory));

  describe(`SessionStore conformance: ${name}`, () => {
    afterEach(async () => {
      await world?.dispose();
      world = undefined;
    });

    it('loads what was appended: every event in order, and the snapshot the reducer makes of them', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = await new Writer(a, w.project).start();
      await s.write({ type: 'message', message: user('fix the test') });
      await s.write({ type: 'title', title: 'fix the test' });
      await s.write({ type: 'message', message: reply('on it') });
      await s.write({ type: 'todos', todos: [{ id: '1', content: 'read the test', status: 'in_progress' }] });
      await s.write({ type: 'grant', grant: { rule: 'Bash(npm test:*)', time: 5 } });
      await s.write({ type: 'usage', usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: 2, cacheWriteTokens: 1 }, model: 'm1' });
      await s.write({ type: 'checkpoint', reason: 'tool_result' });
      await s.turn('second');
      await s.write({ type: 'compaction', messages: [user('summary so far'), reply('re: second')], tokensBefore: 900, tokensAfter: 120 });
      await s.turn('third');

      const check = (loaded: SessionSnapshot | undefined) => {
        expect(loaded, 'load() found the session').toBeDefined();
        expect(loaded!.info).toMatchObject({ id: s.id, projectRoot: w.project, projectHash: projectHash(w.project), title: 'fix the test', model: 'm1' });
        expect(loaded!.messages).toEqual(s.state.messages);
        expect(loaded!.todos).toEqual(s.state.todos);
        expect(loaded!.grants).toEqual(s.state.grants);
        expect(loaded!.usage).toEqual(s.state.usage);
        expect(loaded!.compactions.map(({ time: _t, ...rest }) => rest)).toEqual([{ messagesBefore: 4, tokensBefore: 900, tokensAfter: 120 }]);
        expect(loaded!.warnings).toEqual([]);
      };
      check(await a.load({ kind: 'id', id: s.id, projectRoot: w.project }));
      await a.close();
      const b = await w.store('ben');
      check(await b.load({ kind: 'id', id: s.id, projectRoot: w.project }));
      // An id is global: found whichever project the caller is in.
      check(await b.load({ kind: 'id', id: s.id, projectRoot: w.otherProject }));
      expect((await b.load({ kind: 'latest', projectRoot: w.project }))?.info.id).toBe(s.id);
      expect(await b.load({ kind: 'latest', projectRoot: w.otherProject })).toBeUndefined();
    });

    it('keeps the call order of appends that are not awaited one by one', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = await new Writer(a, w.project).start();
      const writes: Promise<void>[] = [];
      for (let i = 0; i < 30; i++) writes.push(s.write({ type: 'message', message: user(`m${i}`) }));
      writes.push(s.write({ type: 'checkpoint', reason: 'turn_end' }));
      await Promise.all(writes);
      const b = await w.store('ben');
      expect(texts(await b.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
    });

    it('resolves full ids and prefixes (this project first), and never resolves or loads anything else', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const { prefix, ids } = siblingIds();
      const [x, y, z] = ids;
      for (const id of [x, y]) await (await new Writer(a, w.project, id).start()).turn(id.slice(-1));
      await (await new Writer(a, w.otherProject, z).start()).turn('z');
      const elsewhere = join(w.root, 'nowhere');

      expect(await a.resolve(x, w.project)).toEqual([x]);
      expect(await a.resolve(x.slice(0, 10), w.project)).toEqual([x]);
      expect(await a.resolve(x.toUpperCase(), w.project)).toEqual([x]);
      // Ambiguous: the caller says so (ASSISTANT_SESSION_AMBIGUOUS) and lists them.
      expect((await a.resolve(prefix, w.project)).sort()).toEqual([x, y]);
      // Matches in this project hide matches elsewhere; with none here, every project's count.
      expect(await a.resolve(prefix, w.otherProject)).toEqual([z]);
      expect((await a.resolve(prefix, elsewhere)).sort()).toEqual([x, y, z]);
      // Unknown: the caller says so (ASSISTANT_SESSION_NOT_FOUND).
      const unknown = '0000000';
      expect(await a.resolve(unknown, w.project)).toEqual([]);
      for (const bad of ['', '../', '*', `${x.slice(0, 4)}/..`, '%'] ) expect(await a.resolve(bad, w.project), `resolve(${JSON.stringify(bad)})`).toEqual([]);

      // load() takes a full id: a prefix is not resolved there, and nothing that is not an id is looked up.
      expect(await a.load({ kind: 'id', id: prefix, projectRoot: w.project })).toBeUndefined();
      expect(await a.load({ kind: 'id', id: randomUUID(), projectRoot: w.project })).toBeUndefined();
      for (const bad of ['../../../etc/passwd', `../${x}`, `${x}/..`, ''])
        expect(await a.load({ kind: 'id', id: bad, projectRoot: w.project }), `load(${JSON.stringify(bad)})`).toBeUndefined();
      expect(await a.delete(randomUUID())).toBe(false);
    });

    it('lists the most recent first, per project or every project, and honours limit', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const sessions: Writer[] = [];
      for (const name of ['first', 'second', 'third']) {
        const s = await new Writer(a, w.project).start();
        await s.turn(name);
        await s.write({ type: 'title', title: name });
        sessions.push(s);
        await pause(TICK_MS);
      }
      const other = await new Writer(a, w.otherProject).start();
      await other.turn('elsewhere');
      await a.close();

      const b = await w.store('ben');
      const [first, second, third] = sessions as [Writer, Writer, Writer];
      expect((await b.list({ projectRoot: w.project })).map((r) => r.id)).toEqual([third.id, second.id, first.id]);
      expect(await b.list({ projectRoot: w.project, limit: 1 })).toEqual([
        expect.objectContaining({ id: third.id, projectRoot: w.project, projectHash: projectHash(w.project), title: 'third', messageCount: 2, createdAt: third.state.info.createdAt }),
      ]);
      expect((await b.list({ allProjects: true })).map((r) => r.id)).toEqual([other.id, third.id, second.id, first.id]);
      expect((await b.list({ allProjects: true, limit: 2 })).map((r) => r.id)).toEqual([other.id, third.id]);
      expect(await b.list({ projectRoot: join(w.root, 'nowhere') })).toEqual([]);

      // Activity moves a session to the top.
      await pause(TICK_MS);
      await b.acquire(first.id);
      const again = new Writer(b, w.project, first.id);
      Object.assign(again.state, (await b.load({ kind: 'id', id: first.id, projectRoot: w.project }))!);
      await again.turn('more');
      await b.close();
      const c = await w.store('cleo');
      const rows = await c.list({ projectRoot: w.project, limit: 2 });
      expect(rows.map((r) => r.id)).toEqual([first.id, third.id]);
      expect(rows[0]).toMatchObject({ messageCount: 4 });
      expect(rows[0]!.lastActiveAt).toBeGreaterThan(rows[1]!.lastActiveAt);
    });

    it('moves a session resumed from another project to that project', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = await new Writer(a, w.project).start();
      await s.turn('before the move');
      await s.write({ type: 'resume', projectRoot: w.otherProject, projectHash: projectHash(w.otherProject), surface: 'ana@conformance' });
      await s.turn('after the move');
      await a.close();
      const b = await w.store('ben');
      expect((await b.list({ projectRoot: w.otherProject })).map((r) => r.id)).toEqual([s.id]);
      expect(await b.list({ projectRoot: w.project })).toEqual([]);
      const loaded = await b.load({ kind: 'id', id: s.id, projectRoot: w.otherProject });
      expect(loaded?.info.projectRoot).toBe(w.otherProject);
      expect(texts(loaded)).toEqual(['before the move', 're: before the move', 'after the move', 're: after the move']);
    });

    it('claims the lease before the first append: a new session is never unprotected', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const b = await w.store('ben');
      const id = randomUUID();
      // The kernel claims a new session's id before its session_start is written.
      const lease = await a.acquire(id);
      expect(lease.sessionId).toBe(id);
      expect(lease.owner).toMatchObject({ surface: expect.stringContaining('ana@conformance'), pid: process.pid, host: hostname() });
      // Claiming again what one already holds is fine (re-entrant).
      await a.acquire(id);
      await expect(b.acquire(id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE', message: expect.stringContaining(lease.owner.surface) });
      const s = new Writer(a, w.project, id);
      await s.write({ type: 'session_start', info: { ...s.state.info } });
      await s.turn('mine');
      await expect(b.acquire(id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
      expect((await b.list({ projectRoot: w.project })).map((r) => r.inUseBy)).toEqual([lease.owner.surface]);
      expect((await a.list({ projectRoot: w.project }))[0]!.inUseBy, 'a store does not report its own lease as "in use"').toBeUndefined();

      // A store appended to without acquire claims the session on that first append.
      const unclaimed = new Writer(b, w.project);
      await unclaimed.write({ type: 'session_start', info: { ...unclaimed.state.info } });
      await expect(a.acquire(unclaimed.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
    });

    it('refuses a second owner while the lease is live: no acquire, append, delete or prune; reading is allowed', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = await new Writer(a, w.project).start();
      await s.turn('mine');
      const b = await w.store('ben');
      const intruder = new Writer(b, w.project, s.id);
      await expect(intruder.write({ type: 'message', message: user('theirs') })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
      await expect(b.delete(s.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE', message: expect.stringContaining('ana@conformance') });
      expect(await b.prune({ projectRoot: w.project, before: Date.now() + 60_000 })).toEqual([]);
      expect(texts(await b.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(['mine', 're: mine']);
      // The holder carries on undisturbed.
      await s.turn('still mine');
      expect(texts(await a.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(['mine', 're: mine', 'still mine', 're: still mine']);
    });

    it('frees the session when the lease is released', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = new Writer(a, w.project);
      const lease = await a.acquire(s.id);
      await s.write({ type: 'session_start', info: { ...s.state.info } });
      await s.turn('mine');
      await lease.release();
      const b = await w.store('ben');
      const taken = await b.acquire(s.id);
      expect(taken.owner.surface).toContain('ben@conformance');
      expect((await a.list({ projectRoot: w.project }))[0]!.inUseBy).toBe(taken.owner.surface);
    });

    it('hands the session over with takeOver: the old holder can never write again', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = await new Writer(a, w.project).start();
      await s.turn('before');
      const b = await w.store('ben');
      const taken = await b.acquire(s.id, { takeOver: true });
      expect(taken.owner.surface).toContain('ben@conformance');
      const next = new Writer(b, w.project, s.id);
      Object.assign(next.state, (await b.load({ kind: 'id', id: s.id, projectRoot: w.project }))!);
      await next.turn('after');

      await expect(s.write({ type: 'message', message: user('late') })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_TAKEN_OVER', message: expect.stringContaining(taken.owner.surface) });
      await expect(s.write({ type: 'checkpoint', reason: 'turn_end' })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_TAKEN_OVER' });
      await expect(a.acquire(s.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
      expect((await a.list({ projectRoot: w.project }))[0]!.inUseBy).toBe(taken.owner.surface);
      await a.close();
      const c = await w.store('cleo');
      expect(texts(await c.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(['before', 're: before', 'after', 're: after']);
    });

    it('takes over the lease of a holder that died, without takeOver; the dead holder is fenced off', { timeout }, async () => {
      const w = fresh();
      const dead = await w.mortalStore('dora');
      const s = await new Writer(dead.store, w.project).start();
      await s.turn('before the crash');
      const b = await w.store('ben');
      await expect(b.acquire(s.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE', message: expect.stringContaining(dead.owner.surface) });
      await dead.kill();

      expect((await b.list({ projectRoot: w.project }))[0]!.inUseBy, 'a dead holder is not listed as in use').toBeUndefined();
      const lease = await b.acquire(s.id);
      expect(lease.owner.surface).toContain('ben@conformance');
      const next = new Writer(b, w.project, s.id);
      Object.assign(next.state, (await b.load({ kind: 'id', id: s.id, projectRoot: w.project }))!);
      await next.turn('after the crash');
      // Were the dead process to write after all (it was only frozen), it is refused.
      await expect(s.write({ type: 'message', message: user('zombie') })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_TAKEN_OVER' });
      const c = await w.store('cleo');
      expect(texts(await c.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(['before the crash', 're: before the crash', 'after the crash', 're: after the crash']);

      // A dead holder does not keep its session from being deleted either.
      const other = await w.mortalStore('dan');
      const gone = await new Writer(other.store, w.project).start();
      await gone.turn('bye');
      await other.kill();
      expect(await c.delete(gone.id)).toBe(true);
    });

    it('deletes a session with its side channels, and prunes the idle ones', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const old1 = await new Writer(a, w.project).start();
      await old1.turn('old one');
      await a.appendRecords(old1.id, 'audit', [{ tool: 'Read' }]);
      const old2 = await new Writer(a, w.otherProject).start();
      await old2.turn('old two');
      await a.close();
      await pause(TICK_MS);
      const cutoff = Date.now();
      await pause(TICK_MS);
      const b = await w.store('ben');
      const recent = await new Writer(b, w.project).start();
      await recent.turn('recent');
      const kept = await new Writer(b, w.project).start();
      await kept.turn('kept');

      // The holder may delete its own session.
      expect(await b.delete(kept.id)).toBe(true);
      expect(await b.delete(kept.id)).toBe(false);
      expect(await b.load({ kind: 'id', id: kept.id, projectRoot: w.project })).toBeUndefined();
      expect(await b.resolve(kept.id, w.project)).toEqual([]);

      const pruned = await b.prune({ projectRoot: w.project, before: cutoff });
      expect(pruned.map((r) => r.id)).toEqual([old1.id]);
      expect((await b.list({ allProjects: true })).map((r) => r.id).sort()).toEqual([old2.id, recent.id].sort());
      expect(await b.readRecords(old1.id, 'audit')).toEqual([]);
      expect((await b.prune({ allProjects: true, before: cutoff })).map((r) => r.id)).toEqual([old2.id]);
      expect((await b.list({ allProjects: true })).map((r) => r.id)).toEqual([recent.id]);
    });

    it('keeps side-channel records per session and channel, in order, durable once appended', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = await new Writer(a, w.project).start();
      await s.turn('audited');
      await a.appendRecords(s.id, 'audit', [{ n: 1, tool: 'Read' }, { n: 2, nested: { ok: true, list: [1, 'two', null] } }]);
      await a.appendRecords(s.id, 'audit', [{ n: 3 }]);
      await a.appendRecords(s.id, 'metrics', [{ run: 'r1', count: 7 }], { durable: false });
      const b = await w.store('ben');
      expect(await b.readRecords(s.id, 'audit')).toEqual([{ n: 1, tool: 'Read' }, { n: 2, nested: { ok: true, list: [1, 'two', null] } }, { n: 3 }]);
      expect(await b.readRecords(s.id, 'metrics')).toEqual([{ run: 'r1', count: 7 }]);
      expect(await b.readRecords(s.id, 'recording')).toEqual([]);
      expect(await b.readRecords(randomUUID(), 'audit')).toEqual([]);
      await expect(a.appendRecords(randomUUID(), 'audit', [{ n: 1 }])).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_NOT_FOUND' });
      for (const bad of ['../audit', 'Audit', 'a/b', ''])
        await expect(a.appendRecords(s.id, bad, [{ n: 1 }]), `channel ${JSON.stringify(bad)}`).rejects.toMatchObject({ code: expect.stringMatching(/^ASSISTANT_/) });
      // The events are untouched by the records beside them.
      expect(texts(await b.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(['audited', 're: audited']);
    });

    it.skipIf(!options.tearLastRecord)('skips a record torn by a crash mid-append, keeps the rest, and appends after it', { timeout }, async () => {
      const w = fresh();
      const dead = await w.mortalStore('dora');
      const s = await new Writer(dead.store, w.project).start();
      await s.turn('complete');
      await dead.kill();
      await options.tearLastRecord!({ scope: w.scope, sessionId: s.id, projectRoot: w.project });

      const b = await w.store('ben');
      const loaded = await b.load({ kind: 'id', id: s.id, projectRoot: w.project });
      expect(texts(loaded)).toEqual(['complete', 're: complete']);
      expect(loaded!.warnings.length, 'the torn record is reported in warnings').toBeGreaterThan(0);
      await b.acquire(s.id);
      const next = new Writer(b, w.project, s.id);
      Object.assign(next.state, loaded!);
      await next.turn('after the crash');
      await b.close();
      const c = await w.store('cleo');
      expect(texts(await c.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(['complete', 're: complete', 'after the crash', 're: after the crash']);
    });

    it('close() makes everything durable and frees every lease it held', { timeout }, async () => {
      const w = fresh();
      const a = await w.store('ana');
      const s = await new Writer(a, w.project).start();
      await s.turn('one');
      await s.write({ type: 'message', message: user('after the last checkpoint') });
      await a.appendRecords(s.id, 'audit', [{ n: 1 }]);
      const claimedOnly = randomUUID();
      await a.acquire(claimedOnly);
      await a.close();
      const b = await w.store('ben');
      await b.acquire(s.id);
      await b.acquire(claimedOnly);
      expect(texts(await b.load({ kind: 'id', id: s.id, projectRoot: w.project }))).toEqual(['one', 're: one', 'after the last checkpoint']);
      expect(await b.readRecords(s.id, 'audit')).toEqual([{ n: 1 }]);
      expect((await b.list({ projectRoot: w.project }))[0]).toMatchObject({ id: s.id, messageCount: 3 });
    });
  });
}
