import { homedir } from 'node:os';
import type { PermissionMode } from '../../../core/index.js';
import type { Style } from '../terminal/style.js';
import { truncate, truncateStart, visibleWidth } from '../terminal/width.js';

/** The permission modes Shift+Tab cycles through; `bypass` only when the session started in it. */
export function modeCycle(startedIn: PermissionMode): PermissionMode[] {
  const modes: PermissionMode[] = ['default', 'acceptEdits', 'plan'];
  return startedIn === 'bypass' ? [...modes, 'bypass'] : modes;
}

/** How a mode is named on the status line. */
export function modeLabel(mode: PermissionMode, style: Style): string {
  switch (mode) {
    case 'acceptEdits':
      return style.magenta('⏵⏵ accept edits');
    case 'plan':
      return style.cyan('⏸ plan mode (read-only)');
    case 'bypass':
      return style.red('⚠ bypass permissions');
    default:
      return 'default mode';
  }
}

/** The working directory with the home folder as `~`. */
export function displayPath(path: string, home = homedir()): string {
  return home && (path === home || path.startsWith(home + '/')) ? '~' + path.slice(home.length) : path;
}

/** The status line: directory, model and permission mode, or a passing hint in their place. */
export function statusLine(parts: { cwd: string; model: string; mode: PermissionMode; hint?: string }, style: Style, width: number): string {
  if (parts.hint) return truncate(style.yellow(parts.hint), width);
  const mode = modeLabel(parts.mode, style) + style.gray(' (shift+tab)');
  const model = style.gray(parts.model);
  const sep = style.gray(' · ');
  const fixed = visibleWidth(model) + visibleWidth(mode) + 2 * visibleWidth(sep);
  const room = width - fixed;
  if (room < 8) return truncate(`${mode}${sep}${model}`, width);
  return style.gray(truncateStart(displayPath(parts.cwd), room)) + sep + model + sep + mode;
}
