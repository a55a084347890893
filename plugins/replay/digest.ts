import { createHash } from 'node:crypto';
import type { Message, ProviderRequest } from '../../core/index.js';

/** A model request reduced to hashes, so a replay can say where it differs without storing every request whole. */
export interface RequestDigest {
  model: string;
  maxTokens: number;
  /** [section id, hash] in order. */
  system: Array<[string, string]>;
  /** [tool name, hash of its spec] in order. */
  tools: Array<[string, string]>;
  /** Hash of each message sent. */
  messages: string[];
}

/** Stable JSON (sorted keys), so equal values hash equal. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export const hashOf = (value: unknown) => createHash('sha256').update(stable(value)).digest('hex').slice(0, 16);

/** What the model sees of a message: its role and content, not local metadata such as times. */
export const messageHash = (m: Message) => hashOf({ role: m.role, content: m.content });

export function digestOf(request: ProviderRequest): RequestDigest {
  return {
    model: request.model,
    maxTokens: request.maxTokens,
    system: request.system.map((s) => [s.id, hashOf(s.text)]),
    tools: request.tools.map((t) => [t.name, hashOf(t)]),
    messages: request.messages.map(messageHash),
  };
}

/** A short, one-line view of a message for reports. */
export function preview(m: Message | undefined): string {
  if (!m) return '(unknown)';
  const text = m.content
    .map((p) => {
      if (p.type === 'text') return p.text;
      if (p.type === 'tool_call') return `${p.name}(${JSON.stringify(p.input)})`;
      if (p.type === 'tool_result') return p.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join(' ');
      return `[${p.type}]`;
    })
    .join(' ')
    .replace(/\s+/g, ' ');
  return `${m.role}: ${JSON.stringify(text.length > 100 ? `${text.slice(0, 99)}…` : text)}`;
}

/** Where a live request differs from the recorded one, in words; empty when it does not. */
export function compareDigests(recorded: RequestDigest, live: RequestDigest, messagesByHash: Map<string, Message>, liveMessages: Message[], ignoreSections: Set<string>): string[] {
  const out: string[] = [];
  if (recorded.model !== live.model) out.push(`model changed: ${recorded.model} → ${live.model}`);
  const sections = (d: RequestDigest) => new Map(d.system.filter(([id]) => !ignoreSections.has(id)));
  const [rs, ls] = [sections(recorded), sections(live)];
  for (const [id, h] of rs) if (!ls.has(id)) out.push(`system prompt section "${id}" removed`);
  else if (ls.get(id) !== h) out.push(`system prompt section "${id}" changed`);
  for (const id of ls.keys()) if (!rs.has(id)) out.push(`system prompt section "${id}" added`);
  const [rt, lt] = [new Map(recorded.tools), new Map(live.tools)];
  for (const [name, h] of rt) if (!lt.has(name)) out.push(`tool ${name} no longer offered`);
  else if (lt.get(name) !== h) out.push(`tool ${name} definition changed`);
  for (const name of lt.keys()) if (!rt.has(name)) out.push(`tool ${name} newly offered`);
  const n = Math.min(recorded.messages.length, live.messages.length);
  const first = recorded.messages.findIndex((h, i) => i < n && live.messages[i] !== h);
  if (first !== -1)
    out.push(`message ${first + 1} differs: recorded ${preview(messagesByHash.get(recorded.messages[first]!))}, now ${preview(liveMessages[first])}`);
  else if (recorded.messages.length !== live.messages.length)
    out.push(`the request has ${live.messages.length} messages, the recording ${recorded.messages.length}`);
  return out;
}
