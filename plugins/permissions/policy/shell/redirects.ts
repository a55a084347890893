import type { SyntaxNode } from './parser.js';
import type { Arg } from './types.js';
import { evaluateScalar, evaluateWord, type WordScope } from './words.js';

/** Redirections of one statement: files read and written, and standard input when it is literal text. */
export interface Effects {
  reads: Arg[];
  writes: Arg[];
  /** Literal standard input (here-doc, here-string); null when it has run-time parts. */
  stdin?: string | null;
  /** Words tree-sitter attached to a redirection that are really arguments (`echo a >f b`). */
  extraArgs: SyntaxNode[];
}

/** Node types of redirections. */
export const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
const SAFE_DEVICES = /^\/dev\/(null|stdin|stdout|stderr|tty|zero|fd\/\d+)$/;

/** No redirections yet. */
export const noEffects = (): Effects => ({ reads: [], writes: [], extraArgs: [] });

/**
 * Reads one redirection into `effects`. tree-sitter hangs the rest of a pipeline or list after a
 * here-doc inside the here-doc node (`cat <<EOF | sh`): those statements go to `continuations`.
 * `visit` runs the substitutions of an unquoted here-doc body (they execute).
 */
export function readRedirect(node: SyntaxNode, words: WordScope, visit: (node: SyntaxNode) => void, effects: Effects, continuations: SyntaxNode[]): void {
  if (node.type === 'herestring_redirect') {
    const value = node.namedChildren[0];
    effects.stdin = value ? evaluateScalar(value, words).value : null;
    return;
  }
  if (node.type === 'heredoc_redirect') {
    for (const child of node.namedChildren) {
      if (child.type === 'heredoc_body') {
        visit(child);
        effects.stdin = child.namedChildren.some((c) => c.type !== 'heredoc_content') ? null : child.text;
      } else if (REDIRECTS.has(child.type)) readRedirect(child, words, visit, effects, continuations);
      else if (child.type !== 'heredoc_start' && child.type !== 'heredoc_end') continuations.push(child);
    }
    return;
  }
  // tree-sitter does not know every operator (`<>` parses as `<` plus an error): when in doubt, both ways.
  const operator = node.namedChildren.some((c) => c.type === 'ERROR') ? '<>' : (node.children.find((c) => !c.isNamed && /[<>]/.test(c.type))?.type ?? '>');
  const [destination, ...extra] = node.childrenForFieldName('destination');
  effects.extraArgs.push(...extra);
  if (!destination) return;
  if ((operator === '>&' || operator === '<&' || operator === '>&-' || operator === '<&-') && /^(\d+|-)$/.test(destination.text)) return;
  const target = evaluateWord(destination, words)[0];
  if (!target) return;
  if (target.value !== null && SAFE_DEVICES.test(target.value)) return;
  if (operator.includes('<')) effects.reads.push(target);
  if (operator.includes('>')) effects.writes.push(target);
}
