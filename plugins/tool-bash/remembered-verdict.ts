/**
 * bwrap's verdict kept between runs: its trial costs every run that runs a command ~5-10 ms of CPU,
 * most of it forking a process of this size. It is kept in the user's cache folder, one of the
 * kernel's control folders (read-only to commands, written by tools only with a person's approval).
 * - Only the strongest verdict is kept (available, with a user namespace of its own): a stale one can
 *   only make commands fail to start, never run them less confined. Any other verdict is tried anew
 *   by every run.
 * - It holds for one bwrap file, the one PATH finds now (its real path, device, inode, size, mode
 *   and times), and for one environment: the boot, the user and groups, capabilities,
 *   no-new-privileges and seccomp, the namespaces this process is in, its security label, the
 *   kernel's namespace limits and switches. Anything else tries again.
 */
import { mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userDirs } from '../../core/index.js';

/** What is kept: the verdict's program and the fingerprint it holds for. */
interface Remembered {
  fingerprint: string;
  program: string;
}

const file = () => join(userDirs().cache, 'sandbox-verdict.json');

const readOr = (path: string, fallback = '') => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
};
const linkOr = (path: string) => {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
};

/** This process's environment and `program`'s identity, as one string; undefined when `program` cannot be examined. */
function fingerprint(program: string): string | undefined {
  let stat;
  try {
    stat = statSync(program, { bigint: true });
  } catch {
    return undefined;
  }
  const status = readOr('/proc/self/status');
  // On its own line: a field may be empty (`Groups:` of a user in none).
  const field = (name: string) => status.match(new RegExp(`^${name}:[ \\t]*(.*)$`, 'm'))?.[1] ?? '';
  return JSON.stringify([
    program,
    String(stat.dev), String(stat.ino), String(stat.size), String(stat.mtimeNs), String(stat.ctimeNs), stat.mode.toString(8),
    readOr('/proc/sys/kernel/random/boot_id'),
    ...['Uid', 'Gid', 'Groups', 'CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb', 'NoNewPrivs', 'Seccomp', 'Seccomp_filters'].map(field),
    readOr('/proc/self/uid_map'), readOr('/proc/self/gid_map'), readOr('/proc/self/setgroups'),
    ...['user', 'mnt', 'pid', 'net'].map((ns) => linkOr(`/proc/self/ns/${ns}`)),
    readOr('/proc/self/attr/current', '-'),
    ...['user', 'mnt', 'pid', 'net', 'ipc', 'uts', 'cgroup'].map((ns) => readOr(`/proc/sys/user/max_${ns}_namespaces`, '-')),
    ...['unprivileged_userns_clone', 'apparmor_restrict_unprivileged_userns', 'unprivileged_userns_apparmor_policy'].map((name) => readOr(`/proc/sys/kernel/${name}`, '-')),
  ]);
}

/** The kept verdict for `program` (PATH's bwrap, a real path), when it holds here and now. */
export function rememberedVerdict(program: string): { available: true; userNamespace: true; program: string } | undefined {
  let kept: Partial<Remembered> | null;
  try {
    kept = JSON.parse(readFileSync(file(), 'utf8')) as Partial<Remembered> | null;
  } catch {
    return undefined;
  }
  if (kept?.program !== program || typeof kept.fingerprint !== 'string') return undefined;
  const now = fingerprint(program);
  return now !== undefined && now === kept.fingerprint ? { available: true, userNamespace: true, program } : undefined;
}

/**
 * Keeps a trial's verdict when it is the strongest one, and forgets the kept one otherwise (a trial
 * that found less, as `assistant doctor`'s may, is not overruled by an earlier run's). A verdict that
 * cannot be written is simply tried again next run.
 */
export function rememberVerdict(verdict: { available: boolean; userNamespace?: boolean; program?: string }): void {
  const path = file();
  const program = verdict.available && verdict.userNamespace === true ? verdict.program : undefined;
  const print = program ? fingerprint(program) : undefined;
  const partial = `${path}.${process.pid}.tmp`;
  try {
    if (!program || print === undefined) return rmSync(path, { force: true });
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(partial, JSON.stringify({ fingerprint: print, program } satisfies Remembered), { mode: 0o600 });
    renameSync(partial, path);
  } catch {
    // A read-only or full disk: the next run tries bwrap again (a kept verdict that could not be
    // removed is the strongest one: it can only make commands fail to start).
    rmSync(partial, { force: true });
  }
}
