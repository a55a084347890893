import { basename, join, sep } from 'node:path';
import { isWithin } from './resolve.js';

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

/** Project files that steer assistant or git itself: edits always need a person, whatever the mode. */
export function protectedProjectReason(real: string, projectRoot: string): string | undefined {
  if (!isWithin(real, projectRoot)) return undefined;
  const rel = real.slice(projectRoot.length + 1).split(sep);
  const first = (rel[0] ?? '').toLowerCase();
  if (first === '.git') return 'changes git internals (.git/)';
  if (first === '.assistant') return "changes assistant's own settings (.assistant/)";
  if (rel.length === 1 && (first.startsWith('.assistantrc') || first.startsWith('assistant.config.'))) return "changes assistant's configuration";
  if (SHELL_CONFIG.has((rel[rel.length - 1] ?? '').toLowerCase())) return 'changes a shell start-up file';
  return undefined;
}
