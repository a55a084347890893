import type { Message, ProviderRequest } from '../../../dist/core/index.js';
import type { SeenRequest } from './scripted-provider.js';

/** The loop's requests (not summary calls). */
export const turnRequests = (requests: SeenRequest[]) => requests.filter((r) => r.kind === 'stream');

/** Texts of the messages the user typed, in a list of messages (including those carried inside summaries). */
export function userWords(messages: Message[]): string {
  return messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.content.map((p) => (p.type === 'text' ? p.text : '')))
    .join('\n');
}

/** Every tool call in `messages` has its result in `messages`, and every result its call. */
export function pairsIntact(messages: Message[]): boolean {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const m of messages)
    for (const p of m.content) {
      if (p.type === 'tool_call') calls.add(p.id);
      if (p.type === 'tool_result') results.add(p.toolCallId);
    }
  return [...calls].every((id) => results.has(id)) && [...results].every((id) => calls.has(id));
}

/** Index pairs (i, i+1) of turn requests where the history was replaced between them. */
export function rewrites(requests: SeenRequest[]): number[] {
  const turns = turnRequests(requests);
  const out: number[] = [];
  for (let i = 1; i < turns.length; i++) if (!isPrefix(turns[i - 1]!.request, turns[i]!.request)) out.push(i);
  return out;
}

/** True when `a`'s system, tools and messages (without a trailing reminder) are a byte-identical prefix of `b`'s. */
export function isPrefix(a: ProviderRequest, b: ProviderRequest): boolean {
  if (JSON.stringify([a.system, a.tools]) !== JSON.stringify([b.system, b.tools])) return false;
  if (a.messages.length > b.messages.length) return false;
  return a.messages.every((m, i) => JSON.stringify(m.content) === JSON.stringify(b.messages[i]!.content));
}
