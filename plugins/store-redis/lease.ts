import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SessionError, type SessionOwner } from '../../core/index.js';
import { describeHolder, ownerAlive, processStartTicks } from '../../core/kits/store/index.js';

/** Renews the lease only while it still holds our value. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/**
 * Appends one event only while we hold the lease (re-claiming it if it expired unclaimed), so a
 * surface that was taken over can never write again: KEYS = lease, events; ARGV = lease value,
 * lease ttl, entry id, event, time, writer.
 */
export const FENCED_XADD = `local holder = redis.call('get', KEYS[1])
if holder and holder ~= ARGV[1] then return redis.error_reply('LEASE_LOST ' .. holder) end
if not holder then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return redis.call('xadd', KEYS[2], ARGV[3], 'e', ARGV[4], 't', ARGV[5], 'w', ARGV[6])`;
/** Replaces a dead holder's lease only while it still holds exactly what we judged dead: KEYS = lease; ARGV = judged value, ours, ttl. */
const REPLACE_STALE = `if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 else return 0 end`;
/** Deletes the lease only while it still holds our value. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** What a lease key holds. */
export interface LeaseValue extends SessionOwner {
  token: string;
  /** Kernel start time of the holder's process (Linux), so a reused pid is not mistaken for it. */
  startTicks?: string;
}

/** True while the holder may still write: a holder on this host whose process is gone is not. */
export const holderAlive = (holder: LeaseValue): boolean => ownerAlive(holder);

export const parseLease = (raw: string | null): LeaseValue | undefined => {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as LeaseValue;
  } catch {
    return undefined;
  }
};

export function inUseError(sessionId: string, holder: LeaseValue | undefined): SessionError {
  const where = holder ? describeHolder(holder) : 'another surface';
  return new SessionError('ASSISTANT_SESSION_IN_USE', `session ${sessionId.slice(0, 8)} is in use on ${where}; close it there, or pass --take-over to take it over`, {
    plugin: 'store-redis',
  });
}

/**
 * One surface per session: `SET NX PX` claims the lease, a heartbeat renews it while we hold it,
 * and a lost lease (taken over, or expired and taken while we were cut off) is remembered so the
 * next write fails instead of interleaving with the new holder's.
 */
export class Lease {
  readonly value: LeaseValue;
  /** The exact string stored in the lease key: writes are fenced on it. */
  readonly raw: string;
  private timer: NodeJS.Timeout | undefined;
  /** Set once another surface holds the session. */
  lostTo: string | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    readonly sessionId: string,
    readonly ttlMs: number,
    owner: SessionOwner,
  ) {
    this.value = { ...owner, since: Date.now(), token: randomUUID(), startTicks: processStartTicks(owner.pid) };
    this.raw = JSON.stringify(this.value);
  }

  /**
   * Claims the lease; with `takeOver`, replaces whoever holds it. Claiming a lease we already hold
   * renews it; a holder whose process is gone (same host) is replaced as if the lease had expired.
   */
  async acquire(takeOver: boolean): Promise<void> {
    if (takeOver) await this.redis.set(this.key, this.raw, 'PX', this.ttlMs);
    else if (!(await this.claim())) throw inUseError(this.sessionId, parseLease(await this.redis.get(this.key)));
    this.lostTo = undefined;
    this.startHeartbeat();
  }

  private async claim(): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      if ((await this.redis.set(this.key, this.raw, 'PX', this.ttlMs, 'NX')) === 'OK') return true;
      const current = await this.redis.get(this.key);
      if (current === null) continue; // expired or released meanwhile: claim again
      if (current === this.raw) return (await this.redis.eval(RENEW, 1, this.key, this.raw, String(this.ttlMs))) === 1;
      const holder = parseLease(current);
      if (holder && holderAlive(holder)) return false;
      if ((await this.redis.eval(REPLACE_STALE, 1, this.key, current, this.raw, String(this.ttlMs))) === 1) return true;
    }
    return false;
  }

  private startHeartbeat(): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.renew().catch(() => undefined), Math.max(100, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  /**
   * Renews the lease; re-claims it if it expired while Redis was unreachable and nobody took it.
   * Throws connection errors (the caller keeps going locally); marks the lease lost when another surface has it.
   */
  async renew(): Promise<void> {
    if (this.lostTo) return;
    const renewed = (await this.redis.eval(RENEW, 1, this.key, this.raw, String(this.ttlMs))) as number;
    if (renewed === 1) return;
    const reclaimed = await this.redis.set(this.key, this.raw, 'PX', this.ttlMs, 'NX');
    if (reclaimed === 'OK') return;
    this.lostTo = parseLease(await this.redis.get(this.key))?.surface ?? 'another surface';
    clearInterval(this.timer);
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    if (!this.lostTo) await this.redis.eval(RELEASE, 1, this.key, this.raw);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
