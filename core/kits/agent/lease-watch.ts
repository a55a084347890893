import { hostname } from 'node:os';
import type { Kernel } from '../../kernel/kernel-types.js';
import type { SessionOwner } from '../../types/session.js';
import { describeOwner } from '../../util/surface.js';

/** Where a session went when this surface lost its lease. */
export interface LeaseLoss {
  /** The session that moved. */
  sessionId: string;
  /** The surface that took it, when known: the live holder, or else the last one that opened it. */
  owner?: SessionOwner;
  /** `headless on host build-7 (pid 4242)`, or `another surface` when nothing says which. */
  where: string;
}

const isThisProcess = (owner: SessionOwner | undefined) => owner?.pid === process.pid && owner.host === hostname();

/**
 * Watches the lease of the kernel's open session (whichever session is open at each look) and calls
 * `onLost` once when another surface took it, or took it and already let it go (`--take-over`, then
 * done): the session's last `resume` record then names who. Stores without `holder()` are not
 * watched. Returns the function that stops watching.
 */
export function watchLease(kernel: Kernel, onLost: (loss: LeaseLoss) => void, options: { intervalMs?: number } = {}): () => void {
  const every = options.intervalMs ?? 500;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** The session whose lease this surface was last seen holding. */
  let held: string | undefined;

  const look = async (): Promise<LeaseLoss | undefined> => {
    const id = kernel.session?.info.id;
    const store = kernel.store();
    if (!id || !store.holder) return undefined;
    const holder = await store.holder(id);
    if (holder?.mine) {
      held = id;
      return undefined;
    }
    // Not (yet) ours: a session this surface never held is none of its business.
    if (held !== id) return undefined;
    let owner = holder?.owner;
    if (!owner) {
      const snapshot = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
      owner = isThisProcess(snapshot?.info.openedBy) ? undefined : snapshot?.info.openedBy;
    }
    return { sessionId: id, owner, where: owner ? describeOwner(owner) : 'another surface' };
  };

  const tick = () => {
    timer = setTimeout(async () => {
      let loss: LeaseLoss | undefined;
      try {
        loss = await look();
      } catch {
        // A store that cannot answer now (Redis down) is asked again; the fenced writes still protect the session.
      }
      if (stopped) return;
      if (loss) {
        stopped = true;
        onLost(loss);
      } else tick();
    }, every);
    timer.unref();
  };
  try {
    if (kernel.store().holder) tick();
  } catch {
    // No store selected (persistence.store: none): nothing to lose.
  }
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
