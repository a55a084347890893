import { spawn } from 'node:child_process';
import { sanitize } from '../terminal/width.js';

/** `statusLine` in the configuration: a command whose first line of output is shown under the status line. */
export interface StatusLineConfig {
  type?: 'command';
  command: string;
  /** Milliseconds it may run before it is killed (default 2000). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 2000;
/** The command runs at most this often, however fast the facts change (a streaming reply changes cost every turn). */
const MIN_INTERVAL_MS = 300;
/** How long a failure stays on screen. */
const FAILURE_SHOWN_MS = 5000;
const MAX_OUTPUT = 4096;

/** Reads `statusLine` from the merged config; anything malformed is ignored (the schema already reported it). */
export function statusLineConfig(value: unknown): StatusLineConfig | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { command, timeoutMs } = value as Record<string, unknown>;
  if (typeof command !== 'string' || !command.trim()) return undefined;
  return { command, timeoutMs: typeof timeoutMs === 'number' && timeoutMs > 0 ? timeoutMs : undefined };
}

/** One run of the command: its first line of stdout, or why it failed. */
export function runStatusCommand(config: StatusLineConfig, input: string, cwd: string): Promise<{ line: string } | { error: string }> {
  return new Promise((resolve) => {
    // Its own process group, so a timeout kills whatever the command started too.
    const child = spawn('/bin/sh', ['-c', config.command], { cwd, detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    let done = false;
    const finish = (result: { line: string } | { error: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.stdout.destroy();
      resolve(result);
    };
    const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      finish({ error: `timed out after ${timeoutMs} ms` });
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
    });
    child.stdin.on('error', () => undefined); // a command that never reads its input is fine
    child.stdin.end(input);
    child.on('error', (error) => finish({ error: error.message }));
    child.on('close', (code, signal) => {
      if (code === 0) finish({ line: sanitize(stdout.split('\n')[0] ?? '').trim() });
      else finish({ error: signal ? `killed by ${signal}` : `exit ${code}` });
    });
  });
}

/**
 * Keeps the custom status line fresh without running the command more than needed: it runs when
 * what it would be told changed, never twice at once, and at most every 300 ms. A failure is shown
 * for a few seconds; the last good line stays otherwise.
 */
export class StatusCommand {
  private line = '';
  private failure: { text: string; until: number } | undefined;
  private lastInput: string | undefined;
  private pending: string | undefined;
  private running = false;
  private lastRun = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly config: StatusLineConfig,
    private readonly cwd: string,
    /** Asks for a redraw when the line changed. */
    private readonly changed: () => void,
  ) {}

  /** The line to show (a recent failure wins over the last good line). */
  view(now = Date.now()): { text: string; failed: boolean } | undefined {
    if (this.failure && this.failure.until > now) return { text: this.failure.text, failed: true };
    return this.line ? { text: this.line, failed: false } : undefined;
  }

  /** The facts as the command would read them; runs it when they changed. */
  update(input: string): void {
    if (this.closed || input === this.lastInput) return;
    this.lastInput = input;
    this.pending = input;
    this.kick();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private kick(): void {
    if (this.running || this.timer || this.pending === undefined || this.closed) return;
    const wait = this.lastRun + MIN_INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.kick();
      }, wait);
      this.timer.unref();
      return;
    }
    const input = this.pending;
    this.pending = undefined;
    this.running = true;
    this.lastRun = Date.now();
    void runStatusCommand(this.config, input, this.cwd).then((result) => {
      this.running = false;
      if ('line' in result) {
        this.line = result.line;
        this.failure = undefined;
      } else {
        this.failure = { text: `status line command failed: ${result.error}`, until: Date.now() + FAILURE_SHOWN_MS };
        setTimeout(() => this.changed(), FAILURE_SHOWN_MS + 10).unref();
      }
      if (!this.closed) this.changed();
      this.kick();
    });
  }
}
