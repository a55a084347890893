import { appendFile, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ensurePrivateDir, writeFileAtomic, PRIVATE_FILE_MODE } from '../../../core/kits/fs/index.js';

interface Entry {
  project: string;
  time: number;
  text: string;
}

/**
 * Prompt history across sessions: one JSON line per prompt (multi-line prompts stay whole), kept
 * per project, navigated with Up/Down. The file is trimmed when it grows past twice `max`.
 */
export class PromptHistory {
  private entries: string[] = [];
  private index = 0;
  private draft = '';

  constructor(
    private readonly file: string,
    private readonly project: string,
    private readonly max = 1000,
  ) {}

  /** Reads the file; a missing or damaged file gives an empty (or partial) history, never an error. */
  async load(): Promise<void> {
    let raw = '';
    try {
      raw = await readFile(this.file, 'utf8');
    } catch {
      return;
    }
    const all: Entry[] = [];
    for (const line of raw.split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as Entry;
        if (typeof entry.text === 'string' && typeof entry.project === 'string') all.push(entry);
      } catch {
        // A torn line from a crash: skip it.
      }
    }
    // Entries typed in this session before the file was read stay newest.
    const typed = this.entries;
    this.entries = [...all.filter((e) => e.project === this.project).map((e) => e.text).slice(-this.max), ...typed];
    this.index = this.entries.length;
    if (all.length > this.max * 2) await this.rewrite(all.slice(-this.max)).catch(() => undefined);
  }

  /** The prompts of this project, oldest first. */
  get list(): readonly string[] {
    return this.entries;
  }

  /** Records a submitted prompt and resets navigation. */
  async add(text: string): Promise<void> {
    const fresh = text.trim() !== '' && this.entries[this.entries.length - 1] !== text;
    if (fresh) this.entries.push(text);
    this.index = this.entries.length;
    if (!fresh) return;
    const entry: Entry = { project: this.project, time: Date.now(), text };
    await ensurePrivateDir(dirname(this.file));
    await appendFile(this.file, JSON.stringify(entry) + '\n', { mode: PRIVATE_FILE_MODE });
  }

  /** The previous prompt (Up); `current` is kept as the draft to come back to. */
  previous(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    return this.entries[--this.index];
  }

  /** The next prompt (Down), or the draft after the newest. */
  next(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }

  /** Leaves history navigation (after a submit or an edit). */
  reset(): void {
    this.index = this.entries.length;
  }

  // Replaced whole, so a crash while trimming keeps the old history rather than a torn one.
  private async rewrite(entries: Entry[]): Promise<void> {
    await writeFileAtomic(this.file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n', { mode: PRIVATE_FILE_MODE });
  }
}
