import type { Style } from '../terminal/style.js';
import { truncate, visibleWidth } from '../terminal/width.js';
import type { TextBuffer } from './buffer.js';
import { completionContext, matchCommands, matchFiles, type CompletionContext, type Suggestion } from './complete.js';
import type { FileSource } from './file-indexes.js';

const SHOWN = 6;

/** The completion menu under the input: `/commands` and `@files`, Tab or Enter to accept. */
export class CompletionMenu {
  private context: CompletionContext | undefined;
  private items: Suggestion[] = [];
  private selected = 0;
  /** Set by Esc; cleared when the text changes. */
  private dismissedFor: string | undefined;

  constructor(
    private readonly commands: () => Array<{ name: string; description: string; usage?: string }>,
    private readonly files: FileSource,
    /** Called when the file list arrives, to redraw with suggestions. */
    private readonly onReady: () => void,
  ) {}

  get open(): boolean {
    return this.items.length > 0;
  }

  get kind(): CompletionContext['kind'] | undefined {
    return this.open ? this.context?.kind : undefined;
  }

  /** Recomputes the suggestions for the text and cursor. */
  update(buffer: TextBuffer): void {
    if (this.dismissedFor !== undefined && this.dismissedFor !== buffer.text) this.dismissedFor = undefined;
    const context = this.dismissedFor === undefined ? completionContext(buffer.text, buffer.cursor) : undefined;
    const previous = this.items[this.selected]?.value;
    this.context = context;
    if (!context) this.items = [];
    else if (context.kind === 'command') this.items = matchCommands(context.fragment, this.commands());
    else {
      const files = this.files.ready;
      if (!files) void this.files.load().then(this.onReady, () => undefined);
      this.items = files ? matchFiles(context.fragment, files) : [];
    }
    const keep = this.items.findIndex((i) => i.value === previous);
    this.selected = keep >= 0 ? keep : 0;
  }

  move(delta: number): void {
    if (this.items.length) this.selected = (this.selected + delta + this.items.length) % this.items.length;
  }

  /** Replaces the word being completed with the selected suggestion; returns what kind it was. */
  accept(buffer: TextBuffer): CompletionContext['kind'] | undefined {
    const item = this.items[this.selected];
    const context = this.context;
    if (!item || !context) return undefined;
    const folder = item.value.endsWith('/');
    buffer.replace(context.start, context.end, item.value + (folder ? '' : ' '));
    this.update(buffer);
    return context.kind;
  }

  /** Whether the typed command already is the selected one (Enter then runs it). */
  exact(buffer: TextBuffer): boolean {
    const item = this.items[this.selected];
    return !!item && !!this.context && buffer.text.slice(this.context.start, this.context.end) === item.value;
  }

  close(buffer: TextBuffer): void {
    this.dismissedFor = buffer.text;
    this.items = [];
  }

  view(style: Style, width: number): string[] {
    if (!this.items.length) return [];
    const start = Math.min(Math.max(0, this.selected - SHOWN + 1), Math.max(0, this.items.length - SHOWN));
    const shown = this.items.slice(start, start + SHOWN);
    const labelWidth = Math.min(Math.floor(width / 2), Math.max(...shown.map((i) => visibleWidth(i.label))) + 2);
    return shown.map((item, i) => {
      const active = start + i === this.selected;
      const cut = truncate(item.label, labelWidth - 1);
      const label = cut + ' '.repeat(Math.max(0, labelWidth - visibleWidth(cut)));
      const line = truncate(`${active ? '❯ ' : '  '}${label}${item.detail ? style.gray(item.detail) : ''}`, width);
      return active ? style.cyan(line) : line;
    });
  }
}
