/**
 * The OS sandbox for Bash on Linux: bubblewrap with the whole file system read-only, the project
 * and the temp directory writable, the agent's control files read-only, secret files and folders
 * hidden, the network cut off unless allowed, and the command's processes in their own PID
 * namespace (so killing bwrap kills them all). It holds when the agent runs as root: no
 * capabilities inside, a user namespace where the kernel allows one (and none nested in it), and
 * a new terminal session (no TIOCSTI into the agent's terminal).
 * On macOS the same rules as a Seatbelt profile (seatbelt.ts, untested).
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isInside, ToolError, type SandboxConfig } from '../../core/index.js';
import { findOnPath } from '../../core/kits/fs/index.js';
import { controlDenials, controlMounts, type ControlEntry } from './control-mounts.js';
import { SANDBOX_EXEC, seatbeltArgs } from './seatbelt.js';
import { BASH_ERRORS } from './errors.js';
import { rememberedVerdict, rememberVerdict } from './remembered-verdict.js';

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
  /**
   * The bwrap that was tried, as a real path found on PATH when the probe ran: commands run this
   * file, never the name, so a bwrap written later into a folder on PATH is never run.
   */
  program?: string;
}

/** Flags every bwrap run gets: no capabilities (root included), its own session, processes and mounts die with it. */
const CONFINE = ['--unshare-pid', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
/** Where the kernel allows it: a user namespace, with no further one inside (so `unshare -r` cannot win mount rights). */
const USER_NAMESPACE = ['--unshare-user', '--disable-userns'];

let probed: SandboxProbe | undefined;
let probing: Promise<SandboxProbe> | undefined;
/** Set when `probed` is an earlier run's verdict (remembered-verdict.ts) rather than this run's trial. */
let remembered = false;

/** What one bwrap trial run reported. */
interface Trial {
  status: number | null;
  error?: NodeJS.ErrnoException;
  stderr: string;
}

const TRIAL_TIMEOUT_MS = 5000;
/** node:child_process, loaded by the first trial rather than with the plugin: a run that runs no command never needs it. */
const childProcess = () => process.getBuiltinModule('node:child_process');
const trialArgs = (extra: string[]) => ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', ...CONFINE, ...extra, 'true'];

// One trial run answers the question (can it make namespaces here?), so start-up pays for one bwrap
// process, not two; a second one runs only where user namespaces failed. The version is asked for
// only by `assistant doctor` (bwrapVersion).
const NOT_INSTALLED: SandboxProbe = { available: false, reason: 'bubblewrap (bwrap) is not installed; on Debian/Ubuntu: apt-get install bubblewrap' };
const needsPlainTrial = (withUserNamespace: Trial) => withUserNamespace.error?.code !== 'ENOENT' && withUserNamespace.status !== 0;

/** The verdict on `program` from the trial with a user namespace and, where that failed, the one without. */
function verdictOf(program: string, withUserNamespace: Trial, plain: Trial | undefined): SandboxProbe {
  if (withUserNamespace.error?.code === 'ENOENT') return NOT_INSTALLED;
  if (withUserNamespace.status === 0) return { available: true, userNamespace: true, program };
  if (plain?.status !== 0)
    return { available: false, reason: `bwrap cannot create namespaces here (${(plain?.stderr || plain?.error?.message || '').trim() || `exit ${plain?.status}`}); user namespaces may be disabled` };
  return { available: true, userNamespace: false, program };
}

function trialNow(program: string, extra: string[]): Trial {
  const run = childProcess().spawnSync(program, trialArgs(extra), { encoding: 'utf8', timeout: TRIAL_TIMEOUT_MS });
  return { status: run.status, error: run.error as NodeJS.ErrnoException | undefined, stderr: run.stderr ?? '' };
}

/** A trial run in the background; its stderr is read only when asked for (the verdict quotes only the last trial's). */
function trialSoon(program: string, extra: string[], readStderr: boolean): Promise<Trial> {
  return new Promise((resolve) => {
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const settle = (trial: Trial) => {
      clearTimeout(timer);
      resolve(trial);
    };
    try {
      const child = childProcess().spawn(program, trialArgs(extra), { stdio: ['ignore', 'ignore', readStderr ? 'pipe' : 'ignore'] });
      // Not spawn's own `timeout`: its timer outlives a spawn that failed (no bwrap) and holds the process open.
      timer = setTimeout(() => child.kill('SIGKILL'), TRIAL_TIMEOUT_MS);
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', (error: NodeJS.ErrnoException) => settle({ status: null, error, stderr }));
      // A run killed at the time limit closes with no status, as spawnSync reports it.
      child.on('close', (status) => settle({ status, stderr }));
    } catch (error) {
      settle({ status: null, error: error as NodeJS.ErrnoException, stderr });
    }
  });
}

const unsupported = (): SandboxProbe => ({ available: false, reason: `no sandbox is implemented for ${process.platform} yet (Linux uses bubblewrap, macOS sandbox-exec)` });

/** A verdict kept from an earlier run for PATH's `program`, taken as this run's. */
function recall(program: string): SandboxProbe | undefined {
  const kept = rememberedVerdict(program);
  if (kept && !probed) remembered = true;
  return kept && (probed ??= kept);
}

/** A trial's verdict, kept for the next runs when it is the strongest (remembered-verdict.ts). */
function settle(verdict: SandboxProbe): SandboxProbe {
  rememberVerdict(verdict);
  return (probed ??= verdict);
}

/**
 * Whether commands can be sandboxed here: an earlier run's verdict when one holds, else found by
 * trial runs of bwrap once per process; waits for them. `trial` (`assistant doctor`) runs the trial
 * even when an earlier run's verdict holds.
 */
export function probeSandbox(options: { trial?: boolean } = {}): SandboxProbe {
  if (options.trial && remembered) [probed, probing, remembered] = [undefined, undefined, false];
  if (probed) return probed;
  if (process.platform === 'darwin') return (probed = probeSeatbelt());
  if (process.platform !== 'linux') return (probed = unsupported());
  const program = findOnPath('bwrap');
  if (!program) return (probed = NOT_INSTALLED);
  const kept = options.trial ? undefined : recall(program);
  if (kept) return kept;
  const withUserNamespace = trialNow(program, USER_NAMESPACE);
  return settle(verdictOf(program, withUserNamespace, needsPlainTrial(withUserNamespace) ? trialNow(program, []) : undefined));
}

/**
 * The same probe, its trial runs in the background: a start-up goes on loading while bwrap runs
 * (~8 ms blocked otherwise). probeSandbox() before it settles runs its own trial, so no caller
 * ever acts on a guess; the first verdict is the one kept.
 */
export function probeSandboxSoon(): Promise<SandboxProbe> {
  if (probed || process.platform !== 'linux') return Promise.resolve(probeSandbox());
  probing ??= (async () => {
    const program = findOnPath('bwrap');
    if (!program) return (probed ??= NOT_INSTALLED);
    const kept = recall(program);
    if (kept) return kept;
    const withUserNamespace = await trialSoon(program, USER_NAMESPACE, false);
    return settle(verdictOf(program, withUserNamespace, needsPlainTrial(withUserNamespace) ? await trialSoon(program, [], true) : undefined));
  })();
  return probing;
}

/** What the probe will most likely say, without running anything: its verdict once known, else whether a sandbox program is installed. */
export function sandboxLikely(): boolean {
  if (probed) return probed.available;
  if (process.platform === 'darwin') return existsSync(SANDBOX_EXEC);
  return process.platform === 'linux' && findOnPath('bwrap') !== undefined;
}

/** bubblewrap's own version line, for `assistant doctor`. */
export function bwrapVersion(): string {
  if (process.platform !== 'linux') return probeSandbox().version ?? process.platform;
  const version = childProcess().spawnSync(probeSandbox().program ?? 'bwrap', ['--version'], { encoding: 'utf8', timeout: 5000 });
  return version.status === 0 ? version.stdout.trim() : 'bubblewrap';
}

/** macOS: runs a profile of the shape commands get once, so a profile the system rejects never reaches a command. */
function probeSeatbelt(): SandboxProbe {
  if (!existsSync(SANDBOX_EXEC)) return { available: false, reason: `${SANDBOX_EXEC} is missing` };
  const [file, ...args] = seatbeltArgs({ writable: [tmpdir()], hidden: [{ path: join(homedir(), '.ssh'), dir: true }], network: false });
  const trial = childProcess().spawnSync(file!, [...args, '/usr/bin/true'], { encoding: 'utf8', timeout: 5000 });
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
    return realpathSync.native(path);
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
  options: { hide?: readonly string[]; home?: string; platform?: NodeJS.Platform; control?: readonly ControlEntry[]; userNamespace?: boolean; added?: readonly string[]; program?: string } = {},
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
  return [options.program ?? probeSandbox().program ?? 'bwrap', ...args];
}

/**
 * The probe's verdict for a project: a bwrap inside the project or an added folder (an activated
 * .venv/bin first on PATH) is a file the agent can change without asking, so it sandboxes nothing.
 */
export function sandboxVerdict(roots: readonly string[]): SandboxProbe {
  const probe = probeSandbox();
  const inside = probe.program && roots.some((root) => isInside(probe.program!, root));
  return inside ? { available: false, reason: `bwrap was found at ${probe.program}, inside the project, where it can be changed without asking` } : probe;
}
