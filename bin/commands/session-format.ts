import type { SessionSummary } from '../../core/types/session.js';

/** "3 min ago", "2 h ago", "5 d ago": how long since `time`. */
export function ago(time: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - time) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** One line per session: short id, age, size, title (and where it is in use). */
export function summaryLine(s: SessionSummary, options: { showProject?: boolean; now?: number } = {}): string {
  const parts = [
    s.id.slice(0, 8),
    ago(s.lastActiveAt, options.now).padEnd(11),
    `${s.messageCount} msg`.padEnd(8),
    s.title ? JSON.stringify(s.title) : '(untitled)',
  ];
  if (options.showProject) parts.push(`— ${s.projectRoot}`);
  if (s.inUseBy) parts.push(`[in use on ${s.inUseBy}]`);
  return parts.join('  ');
}

/** Parses `30d`, `12h`, `90m`, `2w`, `45s` into milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2]!.toLowerCase() as 's'];
  return Number(m[1]) * unit;
}
