import type { ApprovalAnswer, ApprovalRequest } from '../../../core/index.js';
import type { Key } from '../terminal/keys.js';
import type { LiveView } from '../terminal/screen.js';
import type { Style } from '../terminal/style.js';
import { sanitize, truncate } from '../terminal/width.js';
import { approvalPreview } from './preview.js';
import { ApprovalPrompt, INTERRUPT_MESSAGE, type ApprovalState } from './prompt.js';

const deny = (items: ApprovalRequest[], message: string): ApprovalAnswer[] => items.map(() => ({ behavior: 'deny', scope: 'once', message }));

/**
 * Approvals in the terminal: prints what each call will do, then owns the keyboard until every
 * call of the batch has an answer. Batches arriving together (sub-agents) wait their turn; an
 * interrupt denies the open batch and any that were waiting.
 */
export class ApprovalController {
  private open: { prompt: ApprovalPrompt; resolve: (answers: ApprovalAnswer[]) => void } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private interrupts = 0;
  private closed = false;

  constructor(
    private readonly style: Style,
    private readonly width: () => number,
    private readonly commit: (lines: string[]) => void,
    private readonly changed: () => void,
  ) {}

  /** True while a question is on screen. */
  get active(): boolean {
    return this.open !== undefined;
  }

  approve(items: ApprovalRequest[]): Promise<ApprovalAnswer[]> {
    const interrupts = this.interrupts;
    // A batch that was waiting while the user interrupted the turn is not asked any more.
    const asked = this.queue.then(() => (interrupts !== this.interrupts ? deny(items, INTERRUPT_MESSAGE) : this.ask(items)));
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  /** Routes a key to the open question; says how the batch stands. */
  handle(key: Key): ApprovalState {
    if (!this.open) return 'done';
    const state = this.open.prompt.handle(key);
    if (state === 'interrupted') this.interrupts++;
    if (state !== 'pending') this.settle();
    this.changed();
    return state;
  }

  /** Esc / Ctrl+C elsewhere, or leaving: deny what is open and what waits. */
  interrupt(): void {
    this.interrupts++;
    if (!this.open) return;
    this.open.prompt.interrupt();
    this.settle();
    this.changed();
  }

  /** No more questions: later batches are denied at once. */
  close(): void {
    this.closed = true;
    this.interrupt();
  }

  view(): LiveView | undefined {
    return this.open?.prompt.view(this.style, this.width());
  }

  private settle(): void {
    const { prompt, resolve } = this.open!;
    this.open = undefined;
    resolve(prompt.answers);
  }

  private async ask(items: ApprovalRequest[]): Promise<ApprovalAnswer[]> {
    if (this.closed) return deny(items, 'the user closed assistant');
    const previews: string[] = [''];
    for (const [i, item] of items.entries()) previews.push(...(await approvalPreview(item, i, items.length, this.style, this.width())));
    this.commit(previews);
    return new Promise<ApprovalAnswer[]>((resolve) => {
      this.open = { prompt: new ApprovalPrompt(items, (item, answer) => this.commit([this.answerLine(item, answer)])), resolve };
      this.changed();
    });
  }

  private answerLine(item: ApprovalRequest, answer: ApprovalAnswer): string {
    const { style } = this;
    const { request } = item;
    const target = sanitize(request.command ?? String(request.input.file_path ?? request.input.path ?? '')).split('\n')[0]!;
    const what = `${request.tool} ${truncate(target, 40)}`.trim();
    if (answer.behavior === 'deny') return style.red(`  ✗ denied ${what}`) + (answer.message ? style.gray(`: ${sanitize(answer.message)}`) : '');
    const scope = answer.scope === 'session' ? ' for this session' : answer.scope === 'project' ? ' always in this project' : ' once';
    const rule = answer.scope !== 'once' && item.decision.suggestedRule ? style.gray(` (${item.decision.suggestedRule})`) : '';
    return style.green(`  ✓ allowed ${what}${scope}`) + rule;
  }
}
