import type { Key } from '../terminal/keys.js';
import type { LiveView } from '../terminal/screen.js';
import type { Style } from '../terminal/style.js';
import { truncate } from '../terminal/width.js';

/**
 * A short numbered question in place of the input ("save this note where?"): Up/Down and Enter,
 * or the option's number; Esc or Ctrl+C cancels. Keys in, one answer out.
 */
export class ChoicePrompt<T> {
  private selected = 0;

  constructor(
    private readonly title: string,
    private readonly options: Array<{ label: string; value: T }>,
    private readonly answer: (value: T | undefined) => void,
  ) {}

  /** Handles a key; true once the question is answered or cancelled. */
  handle(key: Key): boolean {
    if (key.type === 'key' && key.name === 'up') this.selected = (this.selected + this.options.length - 1) % this.options.length;
    else if (key.type === 'key' && key.name === 'down') this.selected = (this.selected + 1) % this.options.length;
    else if (key.type === 'key' && key.name === 'enter') return this.done(this.options[this.selected]?.value);
    else if ((key.type === 'key' && key.name === 'escape') || (key.type === 'ctrl' && key.letter === 'c')) return this.done(undefined);
    else if (key.type === 'text' && /^[1-9]$/.test(key.text) && Number(key.text) <= this.options.length) return this.done(this.options[Number(key.text) - 1]!.value);
    return false;
  }

  view(style: Style, width: number): LiveView {
    const lines = [style.bold(truncate(this.title, width))];
    this.options.forEach((option, i) => {
      const line = truncate(`${i === this.selected ? '❯' : ' '} ${i + 1}. ${option.label}`, width);
      lines.push(i === this.selected ? style.cyan(line) : line);
    });
    lines.push(style.gray(truncate('Enter or a number to choose · Esc to cancel', width)));
    return { lines };
  }

  private done(value: T | undefined): true {
    this.answer(value);
    return true;
  }
}
