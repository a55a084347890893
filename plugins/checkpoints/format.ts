import { changedFiles, livePrompts, type Timeline } from './records.js';
import type { RewindOutcome } from './rewind.js';

const clock = (time: number) => new Date(time).toTimeString().slice(0, 5);
const oneLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The numbered prompts a rewind can go back to: text, time, files changed, commands run. */
export function formatCheckpoints(timeline: Timeline, command: string): string {
  const live = livePrompts(timeline);
  if (!live.length) return 'No checkpoints yet: each prompt becomes one (the files it changes are saved first).';
  const lines = ['Checkpoints (a rewind goes back to just before the prompt):'];
  live.forEach((p, i) => {
    const files = changedFiles(p);
    const parts = [`${String(i + 1).padStart(3)}  ${clock(p.time)}  ${oneLine(p.text, 60) || '(no text)'}`];
    parts.push(files.length ? `${files.length} file${files.length === 1 ? '' : 's'}: ${files.slice(0, 4).join(', ')}${files.length > 4 ? ', …' : ''}` : 'no file changes');
    // `checkpoints` names files it could not save (too large, not regular files).
    const tools = new Set(p.untracked.map((u) => u.split(':')[0]).map((t) => (t === 'checkpoints' ? 'unsaved files' : t)));
    if (tools.size) parts.push(`ran ${[...tools].join(', ')} (not undone by a rewind)`);
    lines.push(parts.join('  ·  '));
  });
  lines.push('', `${command} <n> [code|conversation|both] restores the files, the conversation, or both (default both).`);
  lines.push("Commands' side effects (Bash, writes outside the project) are not undone.");
  return lines.join('\n');
}

/** What a rewind did, for people. */
export function formatOutcome(outcome: RewindOutcome, n: number, code: boolean): string {
  const what = [code ? 'code' : '', outcome.conversation ? 'conversation' : ''].filter(Boolean).join(' and ');
  const lines = [`Rewound ${what} to before prompt ${n} ("${oneLine(outcome.target.text, 60)}").`];
  if (code) {
    const changes = [...outcome.restored.map((f) => `restored ${f}`), ...outcome.deleted.map((f) => `deleted ${f}`)];
    lines.push(changes.length ? `  ${changes.join(', ')}` : '  The files were already as they were then.');
  }
  if (outcome.untracked.length)
    lines.push(`  Not undone: the rewound prompts ran commands whose side effects a rewind cannot reverse: ${outcome.untracked.slice(0, 5).join('; ')}${outcome.untracked.length > 5 ? '; …' : ''}`);
  return lines.join('\n');
}
