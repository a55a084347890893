export { ago, summaryLine } from '../../core/kits/store/session-format.js';

/** Parses `30d`, `12h`, `90m`, `2w`, `45s` into milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2]!.toLowerCase() as 's'];
  return Number(m[1]) * unit;
}
