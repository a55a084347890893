import type { Style } from '../terminal/style.js';
import { breakLine, sanitize } from '../terminal/width.js';

/** Added and removed line counts of a diff. */
export interface DiffStats {
  added: number;
  removed: number;
}

/**
 * A coloured unified diff with old and new line numbers, ready to print. jsdiff is imported on
 * first use, so start-up never pays for it.
 */
export async function renderDiff(
  oldText: string,
  newText: string,
  style: Style,
  width: number,
  maxLines = 400,
): Promise<{ lines: string[]; stats: DiffStats }> {
  const { structuredPatch } = await import('diff');
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: 3 });
  const stats: DiffStats = { added: 0, removed: 0 };
  const lines: string[] = [];
  const numberWidth = String(Math.max(1, ...patch.hunks.map((h) => Math.max(h.oldStart + h.oldLines, h.newStart + h.newLines)))).length;
  const gutter = (n: number | undefined) => (n === undefined ? ' '.repeat(numberWidth) : String(n).padStart(numberWidth));
  for (const hunk of patch.hunks) {
    if (lines.length) lines.push(style.gray(' '.repeat(numberWidth) + ' ⋮'));
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const raw of hunk.lines) {
      if (raw.startsWith('\\')) continue; // "\ No newline at end of file"
      const sign = raw[0];
      const text = sanitize(raw.slice(1));
      let line: string;
      if (sign === '+') {
        stats.added++;
        line = style.gray(gutter(newLine++)) + ' ' + style.green(`+ ${text}`);
      } else if (sign === '-') {
        stats.removed++;
        line = style.gray(gutter(oldLine++)) + ' ' + style.red(`- ${text}`);
      } else {
        oldLine++;
        line = style.gray(gutter(newLine++)) + ' ' + style.dim(`  ${text}`);
      }
      lines.push(...breakLine(line, width, ' '.repeat(numberWidth + 3)));
    }
  }
  if (lines.length > maxLines) {
    const hidden = lines.length - maxLines;
    lines.length = maxLines;
    lines.push(style.gray(`… ${hidden} more diff lines`));
  }
  return { lines, stats };
}
