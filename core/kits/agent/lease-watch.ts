import { hostname } from 'node:os';
import type { Kernel } from '../../kernel/kernel-types.js';
import type { SessionOwner } from '../../types/session.js';
import { printable } from '../../util/surface.js';

/** Where a session went when this surface lost its lease. */
export interface LeaseLoss {
  /** The session that moved. */
  sessionId: string;
  /** The surface that took it, when known: the live holder, or else the last one that opened it. */
  owner?: SessionOwner;
  /** `headless on host build-7 (pid 4242)`, or `another surface` when nothing says which. */
  where: string;
}

/** A running watch: stop it, or look now (before a prompt) rather than wait for the next poll. */
export interface LeaseWatch {
  /** Stops watching; `onLost` is not called afterwards. */
  stop(): void;
  /**
   * Looks at the lease now: the loss (reported to `onLost` too, once) when the session moved,
   * including a take-over that came and went since the last poll (the stored history is compared
   * with the open session's too). Undefined while it is still ours.
   * Call it after a run as well: a new session's lease is claimed by its first write, and a lease
   * seen held is what later looks compare with.
   */
  check(): Promise<LeaseLoss | undefined>;
}

const isThisProcess = (owner: SessionOwner | undefined) => owner?.pid === process.pid && owner.host === hostname();

/** How a watch looks, beside its poll interval. */
export interface LeaseWatchOptions {
  /** Milliseconds between looks (default 500). */
  intervalMs?: number;
  /**
   * Every that many polls, compare the stored history with the open session's too (as `check()`
   * always does). Off by default: a surface that is idle between prompts (a server) turns it on.
   */
  compareHistoryEvery?: number;
}

/**
 * Watches the lease of the kernel's open session (whichever session is open at each look) and calls
 * `onLost` once when another surface took it, or took it and already let it go (`--take-over`, then
 * done): the session's last `resume` record then names who. The first look is at once, so a session
 * held when the watch starts is known to be ours. Stores without `holder()` are not watched.
 */
export function watchLease(kernel: Kernel, onLost: (loss: LeaseLoss) => void, options: LeaseWatchOptions = {}): LeaseWatch {
  const every = options.intervalMs ?? 500;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lost: LeaseLoss | undefined;
  let polls = 0;
  /** The session whose lease this surface was last seen holding. */
  let held: string | undefined;
  /** One look at a time: a poll and a `check()` share it. */
  let looking: Promise<LeaseLoss | undefined> | undefined;

  /** Where the session went, from the live holder or else the last surface that opened it. */
  const lossOf = async (id: string, owner: SessionOwner | undefined): Promise<LeaseLoss> => {
    if (!owner) {
      const snapshot = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
      owner = isThisProcess(snapshot?.info.openedBy) ? undefined : snapshot?.info.openedBy;
    }
    return { sessionId: id, owner, where: owner ? describeOwner(owner) : 'another surface' };
  };

  const look = async (compareHistory: boolean): Promise<LeaseLoss | undefined> => {
    const session = kernel.session;
    const id = session?.info.id;
    const store = kernel.store();
    if (!id || !store.holder) return undefined;
    const holder = await store.holder(id);
    if (holder?.mine) {
      held = id;
      if (!compareHistory) return undefined;
      // A store may hand a released lease back to its old holder on its next renewal (Redis does),
      // so a take-over that came and went can leave the lease "ours": the stored history says.
      const stored = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
      if (!stored || stored.messages.length <= session.messages.length) return undefined;
      const opener = isThisProcess(stored.info.openedBy) ? undefined : stored.info.openedBy;
      return { sessionId: id, owner: opener, where: opener ? describeOwner(opener) : 'another surface (which has since released it)' };
    }
    // Not (yet) ours: a session this surface never held is none of its business.
    if (held !== id) return undefined;
    return lossOf(id, holder?.owner);
  };

  const check = async (compareHistory = true): Promise<LeaseLoss | undefined> => {
    if (lost || stopped) return lost;
    looking ??= look(compareHistory).finally(() => (looking = undefined));
    let loss: LeaseLoss | undefined;
    try {
      loss = await looking;
    } catch {
      // A store that cannot answer now (Redis down) is asked again; the fenced writes still protect the session.
      return undefined;
    }
    if (loss && !lost && !stopped) {
      lost = loss;
      clearTimeout(timer);
      onLost(loss);
    }
    return lost;
  };

  const tick = (delay: number) => {
    timer = setTimeout(async () => {
      const compare = Boolean(options.compareHistoryEvery) && ++polls % options.compareHistoryEvery! === 0;
      if (!(await check(compare)) && !stopped) tick(every);
    }, delay);
    timer.unref();
  };
  try {
    if (kernel.store().holder) tick(0);
  } catch {
    // No store selected (persistence.store: none): nothing to lose.
  }
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    check: () => check(true),
  };
}

/** An owner for people: `headless on host build-7 (pid 4242)`, with its label when it has one. */
export function describeOwner(owner: Pick<SessionOwner, 'kind' | 'label' | 'host' | 'pid' | 'surface'>): string {
  if (!owner.kind) return printable(owner.surface);
  return printable(`${owner.kind}${owner.label ? ` (${owner.label})` : ''} on host ${owner.host} (pid ${owner.pid})`);
}
