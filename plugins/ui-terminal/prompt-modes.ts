import type { Kernel } from '../../core/index.js';
import type { AgentRunner } from '../../core/kits/agent/index.js';
import { ChoicePrompt } from './editor/choice.js';
import { appendMemoryNote, memoryTargets, type MemoryTarget } from './memory-note.js';
import { runShellCommand } from './shell/run.js';
import type { Style } from './terminal/style.js';
import { sanitize } from './terminal/width.js';

/** What the `!` and `#` prompts need from the app. */
export interface PromptModeHost {
  readonly kernel: Kernel;
  readonly runner: AgentRunner;
  readonly style: Style;
  readonly env?: NodeJS.ProcessEnv;
  /** The model `/model` chose, if any. */
  readonly modelOverride?: string;
  /** Shows what the user typed as a prompt line. */
  prompt(text: string): void;
  note(lines: string[]): void;
  /** Marks the app busy while `work` runs (`stop` interrupts it); then starts the prompt `next` returns. */
  track(work: Promise<void>, stop: () => void, next: () => string | undefined): void;
  /** Puts a question in place of the input. */
  ask(choice: ChoicePrompt<MemoryTarget>): void;
}

/**
 * `!command` runs in the shell; `#note` (one line) goes to a memory file. A pasted Markdown
 * document that starts with a heading is a prompt, not a note.
 */
export function isModePrompt(text: string): boolean {
  return text.startsWith('!') || (text.startsWith('#') && !text.includes('\n'));
}

const message = (error: unknown) => sanitize(String((error as Error)?.message ?? error));

/** `!command`: the Bash tool runs it through the permission engine and sandbox; its output joins the conversation. */
export function shellMode(host: PromptModeHost, command: string): void {
  const { style, kernel, runner } = host;
  host.prompt(`!${command}`);
  if (!command) return host.note([style.gray("Type a command after ! to run it in the shell (the same way the Bash tool runs the model's commands).")]);
  if (!kernel.tools.get('Bash')) return host.note([style.red('✗ no Bash tool is loaded (built-in plugin tool-bash), so ! commands cannot run')]);
  const controller = new AbortController();
  host.track(
    runShellCommand(kernel, runner, command, { signal: controller.signal, model: host.modelOverride }).then(({ noted }) => {
      if (noted) host.note([style.gray('  (the command and its output are in the conversation for your next prompt)')]);
    }),
    () => controller.abort(),
    () => {
      // Typed while the command ran: it becomes the next prompt.
      const leftover = runner.takeQueued();
      return leftover.length ? leftover.join('\n\n') : undefined;
    },
  );
}

/** `#note`: asks which memory file, then appends the note to it. */
export async function memoryNoteMode(host: PromptModeHost, note: string): Promise<void> {
  const { style, kernel } = host;
  host.prompt(`#${note}`);
  if (!note) return host.note([style.gray('Type a note after # to add it to a memory file.')]);
  const targets = await memoryTargets(kernel, host.env);
  if (!targets.length) return host.note([style.red('✗ no memory file is read (memory.fileNames is empty), so the note has nowhere to go')]);
  const choices = targets.map((t) => ({ label: t.label, value: t }));
  host.ask(
    new ChoicePrompt('Save this note to which memory file?', choices, (target) => {
      if (!target) return host.note([style.gray('  Note not saved.')]);
      appendMemoryNote(target, note, kernel).then(
        (path) => host.note([style.green(`  ✓ noted in ${path}`) + style.gray(' (read again for the next request)')]),
        (error: unknown) => host.note([style.red(`  ✗ the note was not saved: ${message(error)}`)]),
      );
    }),
  );
}
