import { appendFileSync } from 'node:fs';

/** Log levels, most verbose first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** A named logger. Logs go to stderr or a JSONL file, never to stdout (which belongs to the user's output). */
export interface Logger {
  /** The logger's name (a plugin's logger is named after the plugin). */
  readonly name: string;
  /** The least severe level written. */
  readonly level: LogLevel;
  /** Detail for `--debug` runs. */
  debug(message: string, data?: Record<string, unknown>): void;
  /** Something worth knowing that needs no action. */
  info(message: string, data?: Record<string, unknown>): void;
  /** Something went wrong but the run goes on. */
  warn(message: string, data?: Record<string, unknown>): void;
  /** Something failed. */
  error(message: string, data?: Record<string, unknown>): void;
  /** A logger named `<this name>:<name>` writing to the same place. */
  child(name: string): Logger;
  /** True when messages at `level` are written (skip building costly ones otherwise). */
  isEnabled(level: LogLevel): boolean;
}

/** Where log lines go. */
export interface LogSink {
  level: LogLevel;
  /** Append JSON lines here instead of writing text to stderr. */
  file?: string;
  write?: (line: string) => void;
}

/** Creates a logger; children share the sink. */
export function createLogger(name: string, sink: LogSink): Logger {
  const threshold = RANK[sink.level];
  const emit = (level: LogLevel, message: string, data?: Record<string, unknown>) => {
    if (RANK[level] < threshold) return;
    if (sink.file) {
      appendFileSync(sink.file, JSON.stringify({ time: new Date().toISOString(), level, name, message, ...data }) + '\n');
      return;
    }
    const extra = data && Object.keys(data).length ? ' ' + JSON.stringify(data) : '';
    const line = `[${level}] ${name}: ${message}${extra}\n`;
    if (sink.write) sink.write(line);
    else process.stderr.write(line);
  };
  return {
    name,
    level: sink.level,
    debug: (m, d) => emit('debug', m, d),
    info: (m, d) => emit('info', m, d),
    warn: (m, d) => emit('warn', m, d),
    error: (m, d) => emit('error', m, d),
    child: (child) => createLogger(`${name}:${child}`, sink),
    isEnabled: (level) => RANK[level] >= threshold,
  };
}
