/**
 * The OS sandbox for Bash on Linux: bubblewrap with the whole file system read-only, the project
 * and the temp directory writable, the agent's control files read-only, secret files and folders
 * hidden, the network cut off unless allowed, and the command's processes in their own PID
 * namespace (so killing bwrap kills them all). It holds when the agent runs as root: no
 * capabilities inside, a user namespace where the kernel allows one (and none nested in it), and
 * a new terminal session (no TIOCSTI into the agent's terminal).
 * On macOS the same rules as a Seatbelt profile (seatbelt.ts, untested).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolError, type SandboxConfig } from '../../core/index.js';
import { controlDenials, controlMounts, type ControlEntry } from './control-mounts.js';
import { SANDBOX_EXEC, seatbeltArgs } from './seatbelt.js';
import { BASH_ERRORS } from './errors.js';

export type SandboxMode = 'auto' | 'required' | 'off';

export interface SandboxSettings {
  mode: SandboxMode;
  network: boolean;
  writable: string[];
}

/** Reads the `sandbox` config key (a mode string or an object). */
export function sandboxSettings(config: SandboxConfig | undefined): SandboxSettings {
  if (typeof config === 'string') return { mode: config, network: false, writable: [] };
  return { mode: config?.mode ?? 'auto', network: config?.network ?? false, writable: config?.writable ?? [] };
}

/** Folders and files under the home directory that hold credentials. */
const HOME_SECRETS = ['.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker/config.json', '.config/gcloud', '.config/gh', '.netrc', '.git-credentials', '.npmrc', '.pypirc'];
/** Project files that hold secrets: `.env` and `.env.*`, except the example. */
const isEnvFile = (name: string) => (name === '.env' || name.startsWith('.env.')) && name !== '.env.example';

/** Whether bubblewrap is installed and can create its namespaces here (containers may forbid them). */
export interface SandboxProbe {
  available: boolean;
  /** Why not, in words for `assistant doctor` and error messages. */
  reason?: string;
  version?: string;
  /** Commands get a user namespace of their own (and cannot make another): bwrap's `--unshare-user --disable-userns` work here. */
  userNamespace?: boolean;
}

/** Flags every bwrap run gets: no capabilities (root included), its own session, processes and mounts die with it. */
const CONFINE = ['--unshare-pid', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
/** Where the kernel allows it: a user namespace, with no further one inside (so `unshare -r` cannot win mount rights). */
const USER_NAMESPACE = ['--unshare-user', '--disable-userns'];

let probed: SandboxProbe | undefined;

export function probeSandbox(): SandboxProbe {
  if (probed) return probed;
  if (process.platform === 'darwin') return (probed = probeSeatbelt());
  if (process.platform !== 'linux') return (probed = { available: false, reason: `no sandbox is implemented for ${process.platform} yet (Linux uses bubblewrap, macOS sandbox-exec)` });
  // One trial run answers both questions (installed? namespaces allowed?): start-up pays for one
  // bwrap process, not two; the version is asked for only by `assistant doctor` (bwrapVersion).
  const trial = (extra: string[]) => spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', ...CONFINE, ...extra, 'true'], { encoding: 'utf8', timeout: 5000 });
  const withUserNamespace = trial(USER_NAMESPACE);
  if ((withUserNamespace.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    return (probed = { available: false, reason: 'bubblewrap (bwrap) is not installed; on Debian/Ubuntu: apt-get install bubblewrap' });
  if (withUserNamespace.status === 0) return (probed = { available: true, userNamespace: true });
  const plain = trial([]);
  if (plain.status !== 0)
    return (probed = { available: false, reason: `bwrap cannot create namespaces here (${(plain.stderr || plain.error?.message || '').trim() || `exit ${plain.status}`}); user namespaces may be disabled` });
  return (probed = { available: true, userNamespace: false });
}

/** bubblewrap's own version line, for `assistant doctor`. */
export function bwrapVersion(): string {
  if (process.platform !== 'linux') return probeSandbox().version ?? process.platform;
  const version = spawnSync('bwrap', ['--version'], { encoding: 'utf8', timeout: 5000 });
  return version.status === 0 ? version.stdout.trim() : 'bubblewrap';
}

/** macOS: runs a profile of the shape commands get once, so a profile the system rejects never reaches a command. */
function probeSeatbelt(): SandboxProbe {
  if (!existsSync(SANDBOX_EXEC)) return { available: false, reason: `${SANDBOX_EXEC} is missing` };
  const [file, ...args] = seatbeltArgs({ writable: [tmpdir()], hidden: [{ path: join(homedir(), '.ssh'), dir: true }], network: false });
  const trial = spawnSync(file!, [...args, '/usr/bin/true'], { encoding: 'utf8', timeout: 5000 });
  if (trial.status !== 0) return { available: false, reason: `sandbox-exec rejected the profile (${(trial.stderr || trial.error?.message || '').trim() || `exit ${trial.status}`})` };
  return { available: true, version: 'sandbox-exec (Seatbelt profile, untested on this release)' };
}

/** The refusal when `sandbox: required` cannot be met. */
export function sandboxUnavailable(probe: SandboxProbe): ToolError {
  const fix = process.platform === 'darwin' ? 'set sandbox: auto' : 'Install bubblewrap or set sandbox: auto';
  return new ToolError(BASH_ERRORS.ASSISTANT_SANDBOX_UNAVAILABLE, `sandbox is "required" but ${probe.reason}; the command was not run. ${fix}`, { plugin: 'tool-bash' });
}

const real = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};
const expandHome = (path: string, home: string) => (path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path);

/** Paths to hide: secrets under the home directory and at the top of the project and the added directories, and extra ones (the session data). */
function hiddenPaths(roots: readonly string[], home: string, extra: readonly string[]): string[] {
  const found = HOME_SECRETS.map((p) => join(home, p)).filter((p) => existsSync(p));
  for (const root of roots)
    try {
      for (const name of readdirSync(root)) if (isEnvFile(name)) found.push(join(root, name));
    } catch {
      // An unreadable root hides nothing more.
    }
  return [...found, ...extra.filter((p) => existsSync(p))].map((p) => real(p) ?? p);
}

/**
 * The command line that goes before the shell. Linux, bwrap: read-only root, writable project,
 * temp directory and configured paths, control files read-only (and the folders leading to them
 * pinned), hidden secrets (empty tmpfs for folders, /dev/null for files), no capabilities, and no
 * network unless allowed. macOS: the same rules as a Seatbelt profile.
 */
export function sandboxArgs(
  settings: SandboxSettings,
  projectRoot: string,
  options: { hide?: readonly string[]; home?: string; platform?: NodeJS.Platform; control?: readonly ControlEntry[]; userNamespace?: boolean; added?: readonly string[] } = {},
): string[] {
  const home = options.home ?? homedir();
  // The added directories (`--add-dir`, real paths) are writable as the project is.
  const added = options.added ?? [];
  const writable = [...new Set([projectRoot, ...added, tmpdir(), ...settings.writable.map((p) => resolve(projectRoot, expandHome(p, home)))].map((p) => real(p)).filter((p): p is string => !!p))];
  const hidden: Array<{ path: string; dir: boolean }> = [];
  for (const path of hiddenPaths([projectRoot, ...added], home, options.hide ?? [])) {
    try {
      hidden.push({ path, dir: statSync(path).isDirectory() });
    } catch {
      // Gone since it was listed: nothing to hide.
    }
  }
  if ((options.platform ?? process.platform) === 'darwin') return seatbeltArgs({ writable, hidden, network: settings.network, readOnly: controlDenials(options.control ?? [], writable) });
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...CONFINE, ...((options.userNamespace ?? probeSandbox().userNamespace) ? USER_NAMESPACE : [])];
  if (!settings.network) args.push('--unshare-net');
  for (const path of writable) args.push('--bind', path, path);
  // After the writable binds, so a configured writable path never uncovers a control file.
  const control = controlMounts(options.control ?? [], writable, projectRoot, hidden.map((h) => h.path));
  for (const path of control.pinned) args.push('--bind', path, path);
  for (const path of control.readOnly) args.push('--ro-bind', path, path);
  for (const { path, dir } of hidden) args.push(...(dir ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path]));
  return ['bwrap', ...args];
}
