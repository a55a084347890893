/**
 * The OS sandbox for Bash on macOS: a Seatbelt profile for `sandbox-exec`, with the same rules as
 * the bubblewrap one on Linux: writes only to the project, the temp directories and configured
 * paths; secret files and folders unreadable; no network unless allowed.
 *
 * UNTESTED: written without a Mac to run it on (the CI and development machines are Linux). The
 * profile is built by a pure function the Linux tests check, and on macOS the probe runs it once
 * before any command relies on it: a profile that macOS rejects turns the sandbox off (`auto`) or
 * stops the run (`required`), it never breaks every command.
 */

/** Where `sandbox-exec` lives on every macOS release that has it. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** What the profile confines to: absolute, symlink-resolved paths. */
export interface SeatbeltPolicy {
  writable: readonly string[];
  /** Secret paths: folders (`dir: true`) and files that can be neither read nor written. */
  hidden: ReadonlyArray<{ path: string; dir: boolean }>;
  network: boolean;
  /** Control paths that may not be written, created, renamed or removed (folders whole with `dir: true`, else the one path). */
  readOnly?: ReadonlyArray<{ path: string; dir: boolean }>;
}

/** Devices a shell writes to in ordinary work. */
const DEVICE_RULES = ['(literal "/dev/null")', '(literal "/dev/zero")', '(literal "/dev/tty")', '(regex #"^/dev/fd/")', '(regex #"^/dev/ttys[0-9]+$")'];

/**
 * `sandbox-exec` arguments that go before the shell. Paths travel as `-D` parameters, never spliced
 * into the profile text, so no path can change the profile. Later rules win in Seatbelt, so the
 * secret denials come last.
 */
export function seatbeltArgs(policy: SeatbeltPolicy): string[] {
  const params: string[] = [];
  const param = (prefix: string, i: number, path: string) => {
    params.push('-D', `${prefix}${i}=${path}`);
    return `(param "${prefix}${i}")`;
  };
  const writable = policy.writable.map((path, i) => `(subpath ${param('W', i, path)})`);
  const hidden = policy.hidden.map(({ path, dir }, i) => `(${dir ? 'subpath' : 'literal'} ${param('H', i, path)})`);
  const readOnly = (policy.readOnly ?? []).map(({ path, dir }, i) => `(${dir ? 'subpath' : 'literal'} ${param('R', i, path)})`);
  const profile = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${[...writable, ...DEVICE_RULES].join(' ')})`,
    ...(policy.network ? [] : ['(deny network*)']),
    // By path, so a control file that does not exist yet cannot be created either.
    ...(readOnly.length ? [`(deny file-write* ${readOnly.join(' ')})`] : []),
    ...(hidden.length ? [`(deny file-read* file-write* ${hidden.join(' ')})`] : []),
  ].join('\n');
  return [SANDBOX_EXEC, '-p', profile, ...params];
}
