// The records a JSONL store wrote for one session, read straight from its file: what hand-off
// tests check "every event stored once" against.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One record of a session's JSONL file, as far as the tests look at it. */
export type StoredLine = { e: { type: string; message?: { role: string; content: Array<{ type: string; text?: string }> }; owner?: { kind?: string } } };

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The records of session `id` under the data dir `dataDir`, in order. */
export function storedLines(dataDir: string, id: string): StoredLine[] {
  const file = filesUnder(dataDir).find((f) => f.endsWith(`${id}.jsonl`));
  if (!file) throw new Error(`no JSONL file for session ${id} under ${dataDir}`);
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as StoredLine);
}

/** The text of a stored message record. */
export const textOf = (line: StoredLine) => line.e.message?.content.map((p) => p.text ?? '').join('') ?? '';

/** The user and assistant messages of a session's records, as their text. */
export const conversationOf = (lines: StoredLine[]) => lines.filter((l) => l.e.type === 'message' && ['user', 'assistant'].includes(l.e.message!.role)).map(textOf);
