import type { SessionOwner } from '../../types/session.js';
import { printable } from '../../util/surface.js';

/**
 * A lease's holder in a "session in use" refusal: which front end, then who and where, e.g.
 * `acp (Zed) at ana@build-7:/dev/pts/3 (pid 4242, since 10:02:11)`.
 */
export function describeHolder(owner: Pick<SessionOwner, 'kind' | 'label' | 'surface' | 'pid' | 'since'>): string {
  const front = owner.kind ? `${owner.kind}${owner.label ? ` (${owner.label})` : ''} at ` : '';
  return printable(`${front}${owner.surface} (pid ${owner.pid}, since ${new Date(owner.since).toLocaleString()})`);
}
