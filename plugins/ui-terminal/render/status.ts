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

/** What the status line shows. */
export interface StatusParts {
  cwd: string;
  model: string;
  mode: PermissionMode;
  /** A passing hint shown in place of everything else ("Press Ctrl+C again to exit"). */
  hint?: string;
  /** Context used, already formatted (`ctx 12%`). */
  context?: string;
  /** Session cost, already formatted (`$0.0042`). */
  cost?: string;
}

/** The status line: directory, model, context used, cost and permission mode, or a passing hint in their place. */
export function statusLine(parts: StatusParts, style: Style, width: number): string {
  if (parts.hint) return truncate(style.yellow(parts.hint), width);
  const mode = modeLabel(parts.mode, style) + style.gray(' (shift+tab)');
  const sep = style.gray(' · ');
  const facts = [parts.model, parts.context, parts.cost].filter((p): p is string => !!p).map((p) => style.gray(p)).join(sep);
  const fixed = visibleWidth(facts) + visibleWidth(mode) + 2 * visibleWidth(sep);
  const room = width - fixed;
  if (room < 8) return truncate(`${mode}${sep}${facts}`, width);
  return style.gray(truncateStart(displayPath(parts.cwd), room)) + sep + facts + sep + mode;
}
