import type { SessionSummary } from '../../types/session.js';

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
