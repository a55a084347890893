import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { visibleWidth } from '../../dist/plugins/ui-terminal/terminal/width.js';
import { CLI } from '../support/cli.js';
import { tempDir } from '../support/project.js';

/**
 * Whether tmux can be used. On a laptop without it the end-to-end tests skip with a printed
 * reason; under CI=true its absence is a failure.
 */
export function tmuxAvailable(): boolean {
  const found = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
  if (!found && process.env.CI === 'true') throw new Error('tmux is required under CI=true (apt-get install -y tmux)');
  if (!found) console.warn('skipping the terminal UI end-to-end tests: tmux is not installed (apt-get install -y tmux)');
  return found;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let counter = 0;

/** The built CLI running in a private tmux server, driven by keys and read back from the screen. */
export class TmuxTerminal {
  private readonly socket = `assistant-ui-${process.pid}-${++counter}`;

  private constructor(readonly width: number) {}

  /** Starts `assistant` (plus `args`) in `cwd` with exactly the variables in `env` that matter. */
  static start(options: { cwd: string; env: NodeJS.ProcessEnv; args?: string[]; width?: number; height?: number }): TmuxTerminal {
    const term = new TmuxTerminal(options.width ?? 80);
    const keep = ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'ASSISTANT_CONFIG_DIR', 'ASSISTANT_DATA_DIR', 'NO_COLOR', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'TMPDIR'];
    const exports = keep.filter((k) => options.env[k] !== undefined).map((k) => `export ${k}=${JSON.stringify(options.env[k])}`);
    if (options.env.NO_COLOR === undefined) exports.push('unset NO_COLOR');
    const launcher = join(tempDir('assistant-tmux-'), 'run.sh');
    const command = [process.execPath, CLI, ...(options.args ?? [])].map((a) => JSON.stringify(a)).join(' ');
    writeFileSync(launcher, `${exports.join('\n')}\nexport LANG=C.UTF-8\ncd ${JSON.stringify(options.cwd)}\n${command}\necho "[exit $?]"\nsleep 600\n`);
    term.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', String(term.width), '-y', String(options.height ?? 30), `sh ${launcher}`);
    term.tmux('set-option', '-g', 'history-limit', '5000');
    return term;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-u', '-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The visible screen as plain text. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main');
  }

  /** Everything since start (scrollback included); `colors` keeps the SGR codes, `join` rejoins lines the terminal wrapped. */
  history(options: { colors?: boolean; join?: boolean } = {}): string {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', 'main', ...(options.colors ? ['-e'] : []), ...(options.join ? ['-J'] : []));
  }

  /** Named keys, as tmux spells them: Enter, Escape, Up, C-c, BTab ... */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Literal text, typed. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Pastes text the way a terminal does: bracketed, when the program asked for it. */
  paste(text: string): void {
    this.tmux('set-buffer', '-b', 'p', text);
    this.tmux('paste-buffer', '-p', '-b', 'p', '-t', 'main');
  }

  /** Waits until the screen (or the whole history) matches. */
  async waitFor(pattern: RegExp | string, options: { timeoutMs?: number; inHistory?: boolean } = {}): Promise<string> {
    // Generous: on a loaded machine the CLI in tmux may take many seconds to start or redraw.
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    let text = '';
    while (Date.now() < deadline) {
      text = options.inHistory ? this.history() : this.screen();
      if (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) return text;
      await sleep(40);
    }
    throw new Error(`timed out waiting for ${pattern}; the screen was:\n${text}`);
  }

  close(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }
}

/** Lines the terminal had to wrap itself: with -J tmux joins them back, so they come out wider than the pane. */
export const overflowing = (term: TmuxTerminal) => term.history({ join: true }).split('\n').filter((l) => visibleWidth(l.trimEnd()) > term.width);

/** The line of a coloured capture whose visible text contains `needle`. */
export const colouredLine = (capture: string, needle: string) => capture.split('\n').find((l) => l.replace(/\x1b\[[0-9;]*m/g, '').includes(needle)) ?? '';
