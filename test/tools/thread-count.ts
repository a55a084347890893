/** Live threads of this process (Linux: /proc), to observe that the pool starts lazily. */
import { readdirSync } from 'node:fs';

export function threadCount(): number {
  try {
    return readdirSync('/proc/self/task').length;
  } catch {
    return 0;
  }
}
