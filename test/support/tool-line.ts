/**
 * A tool line as the terminal UI prints it. The UI appends the call's duration (` · 1.4s`) once a
 * call takes a second or more, which on a loaded machine even a one-line Read may: a test that
 * expects the line without it depends on the machine's speed. The pattern accepts either.
 */
export function toolLine(line: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const took = '(?: · \\d+\\.\\ds)?';
  const body = line.endsWith(')') ? `${escape(line.slice(0, -1))}${took}\\)` : `${escape(line)}${took}`;
  return new RegExp(`^${body}$`, 'm');
}
