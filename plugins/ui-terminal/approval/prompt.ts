import type { ApprovalAnswer, ApprovalRequest } from '../../../core/index.js';
import { TextBuffer } from '../editor/buffer.js';
import type { Key } from '../terminal/keys.js';
import type { LiveView } from '../terminal/screen.js';
import type { Style } from '../terminal/style.js';
import { sanitize, truncate, visibleWidth, wrapLine } from '../terminal/width.js';
import { fallbackSummary } from '../render/tool-line.js';

/** What the user can answer to one pending call. */
export type ApprovalChoice = 'once' | 'session' | 'project' | 'deny' | 'all' | 'none';

interface Option {
  choice: ApprovalChoice;
  label: string;
}

/** `pending` while questions remain; `done` when every call has an answer; `interrupted` on Esc. */
export type ApprovalState = 'pending' | 'done' | 'interrupted';

/** The message a call denied by an interrupt carries to the model. */
export const INTERRUPT_MESSAGE = 'The user interrupted and denied this call. Stop and wait for their next instruction.';

/**
 * The approval menu for a batch of pending calls, one at a time: yes / yes for this session /
 * always for this project / no (with a message for the model), and "yes to all" / "no to all" when
 * several are pending. Pure state: keys in, answers out; the app prints the previews and draws `view()`.
 */
export class ApprovalPrompt {
  readonly answers: ApprovalAnswer[] = [];
  private selected = 0;
  private message: TextBuffer | undefined;
  /** The message being typed answers every remaining call ("no to all"), not just the current one. */
  private messageForAll = false;

  constructor(
    private readonly items: ApprovalRequest[],
    /** Told about every answer as it is given (the app prints a record line). */
    private readonly onAnswer: (item: ApprovalRequest, answer: ApprovalAnswer) => void = () => {},
  ) {}

  get index(): number {
    return this.answers.length;
  }

  get current(): ApprovalRequest | undefined {
    return this.items[this.answers.length];
  }

  options(): Option[] {
    const item = this.current;
    if (!item) return [];
    const rule = item.decision.suggestedRule ? ` (${item.decision.suggestedRule})` : '';
    const remaining = this.items.length - this.answers.length;
    // Without a rule to record (a private address for WebFetch, an ask rule), "this session" and "always" would record nothing.
    const lasting: Option[] = rule
      ? [
          { choice: 'session', label: `Yes, and don't ask again this session${rule}` },
          { choice: 'project', label: `Yes, always in this project${rule}` },
        ]
      : [];
    const options: Option[] = [{ choice: 'once', label: 'Yes' }, ...lasting, { choice: 'deny', label: 'No, and tell the model what to do instead' }];
    if (remaining > 1)
      options.push({ choice: 'all', label: `Yes to all ${remaining} pending calls` }, { choice: 'none', label: `No to all ${remaining} pending calls` });
    return options;
  }

  handle(key: Key): ApprovalState {
    if (!this.current) return 'done';
    if (this.message) return this.handleMessage(key);
    const options = this.options();
    if (key.type === 'ctrl' && key.letter === 'c') return this.interrupt();
    if (key.type === 'text') {
      const ch = key.text.toLowerCase();
      const digit = Number(ch);
      if (Number.isInteger(digit) && digit >= 1 && digit <= options.length) return this.choose(options[digit - 1]!.choice);
      if (ch === 'y') return this.choose('once');
      if (ch === 'n') return this.choose('deny');
      if (ch === 'a' && options.some((o) => o.choice === 'all')) return this.choose('all');
      return 'pending';
    }
    if (key.type !== 'key') return 'pending';
    switch (key.name) {
      case 'up':
      case 'shift-tab':
        this.selected = (this.selected + options.length - 1) % options.length;
        return 'pending';
      case 'down':
      case 'tab':
        this.selected = (this.selected + 1) % options.length;
        return 'pending';
      case 'enter':
        return this.choose(options[this.selected]!.choice);
      case 'escape':
        return this.interrupt();
      default:
        return 'pending';
    }
  }

  /** Esc / Ctrl+C: every remaining call is denied and the turn should stop. */
  interrupt(): ApprovalState {
    while (this.current) this.answer({ behavior: 'deny', scope: 'once', message: INTERRUPT_MESSAGE });
    return 'interrupted';
  }

  private handleMessage(key: Key): ApprovalState {
    const buffer = this.message!;
    if (key.type === 'text' || key.type === 'paste') buffer.insert(key.text.replace(/\n/g, ' '));
    else if (key.type === 'ctrl' && key.letter === 'c') return this.interrupt();
    else if (key.type === 'ctrl' && key.letter === 'u') buffer.killToStart();
    else if (key.type === 'key') {
      if (key.name === 'enter') {
        const text = buffer.text.trim();
        this.message = undefined;
        const denial: ApprovalAnswer = { behavior: 'deny', scope: 'once', ...(text ? { message: text } : {}) };
        do this.answer(denial);
        while (this.messageForAll && this.current);
        this.messageForAll = false;
        return this.current ? 'pending' : 'done';
      }
      if (key.name === 'escape') {
        this.message = undefined;
        this.messageForAll = false;
      }
      else if (key.name === 'backspace') buffer.backspace();
      else if (key.name === 'left') buffer.left();
      else if (key.name === 'right') buffer.right();
      else if (key.name === 'word-backspace') buffer.deleteWordBack();
    }
    return 'pending';
  }

  private choose(choice: ApprovalChoice): ApprovalState {
    if (choice === 'deny' || choice === 'none') {
      // Either way the model is told what to do instead; "no to all" answers every remaining call with it.
      this.message = new TextBuffer();
      this.messageForAll = choice === 'none';
      return 'pending';
    }
    if (choice === 'all') while (this.current) this.answer({ behavior: 'allow', scope: 'once' });
    else this.answer({ behavior: 'allow', scope: choice });
    return this.current ? 'pending' : 'done';
  }

  private answer(answer: ApprovalAnswer): void {
    const item = this.current!;
    this.answers.push(answer);
    this.selected = 0;
    this.onAnswer(item, answer);
  }

  /** The menu (or the message line) for the live area. */
  view(style: Style, width: number): LiveView {
    const item = this.current;
    if (!item) return { lines: [] };
    const total = this.items.length;
    const what = sanitize(item.request.command ?? fallbackSummary(item.request.input)).split('\n')[0];
    const counter = total > 1 ? style.gray(` (${this.index + 1} of ${total})`) : '';
    const question = truncate(`${style.bold(`Allow ${item.request.tool}`)} ${what}`, width - 12) + style.bold('?') + counter;
    const lines = [style.yellow('─'.repeat(width)), question];
    if (this.message) {
      const scope = this.messageForAll ? ` (denies all ${total - this.index} remaining calls)` : '';
      lines.push(...wrapLine(style.gray(`Tell the model what to do instead${scope} (enter to send, esc to go back):`), width));
      const prefix = style.yellow('✎ ');
      const text = this.message.text;
      const shown = visibleWidth(text) > width - 3 ? '…' + text.slice(-(width - 4)) : text;
      lines.push(prefix + shown);
      const col = 2 + visibleWidth(shown.slice(0, shown.length - (text.length - this.message.cursor)));
      return { lines, cursor: { row: lines.length - 1, col: Math.min(col, width - 1) } };
    }
    this.options().forEach((option, i) => {
      const label = truncate(`${i + 1}. ${option.label}`, width - 2);
      lines.push(i === this.selected ? style.cyan(`❯ ${label}`) : `  ${label}`);
    });
    lines.push(style.gray(truncate('  enter to choose · esc to deny and interrupt', width)));
    return { lines };
  }
}
