import { readFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { ControlFiles } from '../../../../core/index.js';
import { CASE_INSENSITIVE, isWithin } from './resolve.js';

/** Shell start-up files: writing one runs code in every future shell. */
const SHELL_CONFIG = new Set([
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile', '.zshrc', '.zshenv', '.zprofile',
  '.zlogin', '.zlogout', '.cshrc', '.tcshrc', '.kshrc', '.mkshrc', '.inputrc', 'config.fish',
]);
const SYSTEM_ROOTS = ['/etc', '/private/etc', '/dev', '/boot', '/sys', '/proc'];
const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|tty|zero|fd\/\d+)$/;

/** Where a write is judged: whose home, which project. */
export interface WriteContext {
  home: string | null;
  projectRoot: string;
}

/**
 * Why a write to this (resolved) path is a hard block: system configuration, devices, and the
 * shell start-up files and auto-start folders of the user. Undefined when it is not one.
 */
export function systemWriteReason(real: string, context: WriteContext): string | undefined {
  if (HARMLESS_DEVICES.test(real)) return undefined;
  const root = SYSTEM_ROOTS.find((r) => isWithin(real, r));
  if (root) return `writes to ${root} (system configuration and devices)`;
  if (isWithin(real, context.projectRoot)) return undefined;
  if (SHELL_CONFIG.has(basename(real).toLowerCase())) return `writes to the shell start-up file ${real}`;
  if (real.split(sep).includes('fish') && real.includes(`${sep}conf.d${sep}`)) return `writes to the shell start-up folder ${real}`;
  if (context.home) {
    const autostart = [join(context.home, 'Library', 'LaunchAgents'), join(context.home, '.config', 'autostart'), join(context.home, '.config', 'systemd')];
    const hit = autostart.find((dir) => isWithin(real, dir));
    if (hit) return `writes to ${hit}, which starts programs automatically`;
  }
  return undefined;
}

/**
 * Project files git runs or reads as code: edits always need a person, whatever the mode. The
 * agent's own control files come from the kernel's registry (`controlFileReason`).
 */
export function protectedProjectReason(real: string, projectRoot: string): string | undefined {
  if (!isWithin(real, projectRoot)) return undefined;
  const rel = real.slice(projectRoot.length + 1).split(sep);
  const first = (rel[0] ?? '').toLowerCase();
  if (first === '.git') return 'changes git internals (.git/)';
  if (SHELL_CONFIG.has((rel[rel.length - 1] ?? '').toLowerCase())) return 'changes a shell start-up file';
  return undefined;
}

/** Where a control file is looked for: the project, the directory the agent works in. */
export interface ControlContext {
  controlFiles: ControlFiles;
  /** The project root, symlinks resolved. */
  root: string;
  cwd: string;
}

const same = (a: string, b: string) => (CASE_INSENSITIVE ? a.toLowerCase() === b.toLowerCase() : a === b);
const below = (path: string, dir: string) => (CASE_INSENSITIVE ? isWithin(path.toLowerCase(), dir.toLowerCase()) : isWithin(path, dir));

/** Why `path` is a control file for the project seen from `cwd`, by the kernel's registry. */
function registryReason(path: string, context: ControlContext, cwd: string): string | undefined {
  const exact = context.controlFiles.reason(path, context.root, cwd);
  if (exact || !CASE_INSENSITIVE) return exact;
  return context.controlFiles.paths(context.root, cwd).find((c) => (c.dir ? below(path, c.path) : same(path, c.path)))?.why;
}

/**
 * Why writing `path` (absolute) changes what steers the agent: the registry's answer from the
 * working directory, and from the file's own directory (a config file below the working directory
 * is read when assistant starts there). A `package.json` is a control file once it has an
 * `assistant` key; `mayAddKey` says the write could be adding one (content unknown, or it names it).
 */
export function controlFileReason(path: string, context: ControlContext, mayAddKey: boolean): string | undefined {
  const found = registryReason(path, context, context.cwd) ?? (isWithin(path, context.root) ? registryReason(path, context, dirname(path)) : undefined);
  if (found) return found;
  if (basename(path).toLowerCase() === 'package.json' && isWithin(path, context.root) && (mayAddKey || mentionsAssistant(path)))
    return "assistant's configuration (package.json's `assistant` key)";
  return undefined;
}

/** A package.json that names `assistant` anywhere (a nested key an edit could lift to the top) or holds JSON escapes. */
function mentionsAssistant(path: string): boolean {
  try {
    const text = readFileSync(path, 'utf8');
    return /assistant/i.test(text) || /\\u[0-9a-f]{4}/i.test(text);
  } catch {
    return false;
  }
}
