import type { PermissionMode } from '../../core/index.js';
import type { TextBuffer } from './editor/buffer.js';
import type { PromptHistory } from './editor/history.js';
import { applyEditingKey } from './editor/keymap.js';
import type { CompletionMenu } from './editor/menu.js';
import { modeCycle } from './render/status.js';
import type { Key } from './terminal/keys.js';

const DOUBLE_PRESS_MS = 2000;

/** What the key bindings act on: the input, its menu and history, and the app's few actions. */
export interface KeyHost {
  readonly buffer: TextBuffer;
  readonly menu: CompletionMenu;
  readonly history: PromptHistory;
  readonly busy: boolean;
  readonly startMode: PermissionMode;
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): string | undefined;
  submit(text: string): void;
  interrupt(): void;
  exit(code?: number): void;
  clearScreen(): void;
  showDetails(): void;
  toggleThinking(): void;
  /** Shows a passing hint on the status line. */
  flash(text: string, ms: number): void;
  /** Esc Esc on an empty prompt: opens the checkpoints to rewind to; false when no plugin offers /rewind. */
  rewind(): boolean;
}

/**
 * The keys of the input: Enter, Tab and the menu, history, Shift+Tab for the mode, Esc and Ctrl+C
 * (interrupt, clear, press twice to leave), and the Ctrl shortcuts; anything else edits the text.
 */
export class KeyBindings {
  private lastPress = { ctrlC: 0, escape: 0 };

  constructor(private readonly host: KeyHost) {}

  handle(key: Key): void {
    const { buffer, history, menu } = this.host;
    if (key.type === 'key' && this.appKey(key.name)) return;
    if (key.type === 'ctrl' && this.ctrlKey(key.letter)) return;
    if (applyEditingKey(buffer, key)) {
      history.reset();
      menu.update(buffer);
    }
  }

  /** Keys with a meaning beyond editing; false lets the editor have the key. */
  private appKey(name: Extract<Key, { type: 'key' }>['name']): boolean {
    const host = this.host;
    const { buffer: b, menu, history } = host;
    switch (name) {
      case 'enter':
        if (menu.open && menu.kind === 'file') menu.accept(b);
        else if (menu.open && !menu.exact(b)) {
          menu.accept(b);
          host.submit(b.text);
        } else if (b.text.endsWith('\\') && b.cursor === b.text.length) {
          b.backspace();
          b.insert('\n');
        } else host.submit(b.text);
        return true;
      case 'tab':
        menu.accept(b);
        return true;
      case 'shift-tab': {
        const modes = modeCycle(host.startMode);
        host.setMode(modes[(modes.indexOf(host.mode) + 1) % modes.length]!);
        return true;
      }
      case 'escape':
        if (menu.open) menu.close(b);
        else if (host.busy) host.interrupt();
        else if (!b.empty && this.pressedTwice('escape')) b.clear();
        else if (!b.empty) host.flash('Esc again to clear the input', DOUBLE_PRESS_MS);
        else if (this.pressedTwice('escape')) host.rewind();
        return true;
      case 'up':
        if (menu.open) menu.move(-1);
        else if (!b.up()) this.recall(history.previous(b.text), false);
        return true;
      case 'down':
        if (menu.open) menu.move(1);
        else if (!b.down()) this.recall(history.next(), true);
        return true;
      default:
        return false;
    }
  }

  private ctrlKey(letter: string): boolean {
    const host = this.host;
    const { buffer: b, history } = host;
    switch (letter) {
      case 'c':
        if (host.busy) host.interrupt();
        else if (!b.empty) b.clear();
        else if (this.pressedTwice('ctrlC')) host.exit(0);
        else host.flash('Press Ctrl+C again to exit', DOUBLE_PRESS_MS);
        break;
      case 'd':
        if (!b.empty) return false;
        host.exit(0);
        break;
      case 'p':
        this.recall(history.previous(b.text), false);
        break;
      case 'n':
        this.recall(history.next(), true);
        break;
      case 'l':
        host.clearScreen();
        break;
      case 'o':
        host.showDetails();
        break;
      case 't':
        host.toggleThinking();
        break;
      default:
        return false;
    }
    host.menu.update(b);
    return true;
  }

  /** Records a press; true when the same key was pressed moments ago. */
  private pressedTwice(key: keyof KeyBindings['lastPress']): boolean {
    const twice = Date.now() - this.lastPress[key] < DOUBLE_PRESS_MS;
    this.lastPress[key] = twice ? 0 : Date.now();
    return twice;
  }

  private recall(text: string | undefined, atEnd: boolean): void {
    if (text === undefined) return;
    const firstBreak = text.indexOf('\n');
    this.host.buffer.set(text, atEnd || firstBreak < 0 ? text.length : firstBreak);
  }
}
