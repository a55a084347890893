/**
 * Fitting a page into the characters WebFetch returns. With a `prompt`, a page too long to return
 * whole keeps the sections that mention the prompt's words most (in page order), so the cut falls
 * on what the model did not ask about; without one, or when nothing matches, the start is kept.
 */

/** What was kept, and how much was left out. */
export interface Fitted {
  text: string;
  /** Characters of the page not returned. */
  omitted: number;
  /** How the cut was made, for the result's header. */
  how?: 'head' | 'sections';
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'which', 'this', 'that', 'from', 'about', 'does', 'how', 'are', 'was', 'its', 'into', 'page', 'find', 'tell', 'show', 'list', 'give', 'all', 'any', 'there', 'their', 'them', 'you', 'your']);

/** The prompt's words worth looking for. */
function terms(prompt: string): string[] {
  const words = prompt.toLowerCase().match(/[\p{L}\p{N}_-]{3,}/gu) ?? [];
  return [...new Set(words.filter((w) => !STOP_WORDS.has(w)))];
}

/** Markdown split before each heading. */
function sections(markdown: string): string[] {
  return markdown.split(/\n(?=#{1,6} )/);
}

function occurrences(text: string, term: string): number {
  let count = 0;
  for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + term.length)) count++;
  return count;
}

/** The page cut to `maxChars`, by relevance to `prompt` when there is one. */
export function fitToLimit(markdown: string, maxChars: number, prompt?: string): Fitted {
  if (markdown.length <= maxChars) return { text: markdown, omitted: 0 };
  const wanted = prompt ? terms(prompt) : [];
  const parts = sections(markdown);
  const scored = parts.map((text, index) => {
    const lower = text.toLowerCase();
    return { index, text, score: wanted.reduce((sum, term) => sum + occurrences(lower, term), 0) };
  });
  if (wanted.length && parts.length > 1 && scored.some((s) => s.score > 0)) {
    const chosen = new Set<number>();
    let used = 0;
    for (const section of [...scored].filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.index - b.index)) {
      if (used + section.text.length + 8 > maxChars) continue;
      chosen.add(section.index);
      used += section.text.length + 8;
    }
    if (chosen.size) {
      const out: string[] = [];
      let previous = -1;
      for (const index of [...chosen].sort((a, b) => a - b)) {
        if (index !== previous + 1) out.push('[…]');
        out.push(parts[index]!);
        previous = index;
      }
      if (previous !== parts.length - 1) out.push('[…]');
      const text = out.join('\n\n');
      return { text, omitted: Math.max(0, markdown.length - used), how: 'sections' };
    }
  }
  return { text: markdown.slice(0, maxChars), omitted: markdown.length - maxChars, how: 'head' };
}
