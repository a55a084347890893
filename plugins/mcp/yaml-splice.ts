import type { ServersEdit } from './config-file.js';

/** A change to the text: replace [start, end) with `text`. */
interface Splice {
  start: number;
  end: number;
  text: string;
}

type Node = { range?: [number, number, number] | null; toJSON?: () => unknown; items?: Pair[]; flow?: boolean };
type Pair = { key: Node & { value?: unknown }; value: Node | null };

const lineStart = (text: string, pos: number) => text.lastIndexOf('\n', pos - 1) + 1;
/** Just after the newline ending the line that holds the character before `pos`. */
const afterLine = (text: string, pos: number) => {
  const i = text.indexOf('\n', Math.max(0, pos - 1));
  return i < 0 ? text.length : i + 1;
};

/**
 * Edits `mcpServers` in YAML text by splicing only the lines of the entries that change, so the
 * rest of the file (comments, their indentation, key order, blank lines, quoting) stays byte for
 * byte: re-rendering the whole document moved the starter file's comments. Returns the new text,
 * or undefined when the edit leaves the file as it was. `fail` reports a parse error.
 */
export async function spliceServers(text: string, edit: ServersEdit, fail: (message: string) => Error): Promise<string | undefined> {
  const { parseDocument, stringify, isMap, isScalar } = await import('yaml');
  const doc = parseDocument(text);
  if (doc.errors.length) throw fail(doc.errors[0]!.message.split('\n')[0]!);
  const root = doc.contents as unknown as Node | null;
  if (root !== null && (!isMap(root) || (root as Node).flow)) throw fail('its top level is not a block mapping of keys');
  const pair = ((root as Node | null)?.items ?? []).find((p) => isScalar(p.key) && p.key.value === 'mcpServers');
  const block = pair?.value && isMap(pair.value) && !pair.value.flow ? pair.value : undefined;
  const before = pair?.value?.toJSON?.() as Record<string, unknown> | undefined;
  const next = edit(before && typeof before === 'object' ? before : undefined);
  if (next === false) return undefined;
  const servers = next ?? {};

  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  const render = (name: string, value: unknown, column: string) =>
    stringify({ [name]: value }, { indent: indent.length || 2 }).replace(/\n$/, '').split('\n').map((line) => column + line).join('\n') + '\n';
  const splices: Splice[] = [];
  const whole = pair && { start: lineStart(text, pair.key.range![0]), end: afterLine(text, (pair.value ?? pair.key).range![1]) };

  if (!Object.keys(servers).length) {
    if (!whole) return undefined;
    splices.push({ ...whole, text: '' });
  } else if (!block) {
    const section = `mcpServers:\n${Object.entries(servers).map(([name, value]) => render(name, value, indent)).join('')}`;
    if (whole) splices.push({ ...whole, text: section });
    else splices.push({ start: text.length, end: text.length, text: `${text && !text.endsWith('\n') ? '\n' : ''}${section}` });
  } else {
    const entries = (block.items as unknown as Pair[]).map((p) => ({
      name: String(p.key.value),
      start: lineStart(text, p.key.range![0]),
      end: afterLine(text, (p.value ?? p.key).range![1]),
      column: text.slice(lineStart(text, p.key.range![0]), p.key.range![0]),
    }));
    const column = entries[0]?.column ?? indent;
    for (const entry of entries) {
      if (!(entry.name in servers)) splices.push({ start: entry.start, end: entry.end, text: '' });
      else if (JSON.stringify(before?.[entry.name]) !== JSON.stringify(servers[entry.name])) splices.push({ start: entry.start, end: entry.end, text: render(entry.name, servers[entry.name], entry.column) });
    }
    const added = Object.entries(servers).filter(([name]) => !entries.some((e) => e.name === name));
    const at = entries.length ? entries[entries.length - 1]!.end : whole!.end;
    if (added.length) splices.push({ start: at, end: at, text: `${at === text.length && text && !text.endsWith('\n') ? '\n' : ''}${added.map(([name, value]) => render(name, value, column)).join('')}` });
  }
  let out = text;
  for (const s of splices.sort((a, b) => b.start - a.start)) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out === text ? undefined : out;
}
