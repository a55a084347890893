import { createRequire } from 'node:module';
import type { Parser as TsParser } from 'web-tree-sitter';
import { PermissionError } from '../../../../core/index.js';
import { PERMISSION_ERRORS } from '../../errors.js';
import { parseSimpleScript } from './mini-parser.js';

/**
 * What the walker uses of a syntax node: tree-sitter's nodes have it, and so do the mini parser's
 * (mini-parser.ts), which stand in for them on simple commands.
 */
export interface SyntaxNode {
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly hasError: boolean;
  readonly children: SyntaxNode[];
  readonly namedChildren: SyntaxNode[];
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): SyntaxNode[];
}

/** A parsed script: the root node, and `dispose` to free the tree's wasm memory. */
export interface ParsedScript {
  root: SyntaxNode;
  dispose(): void;
}

/** Thrown when a script needs tree-sitter and it is not loaded yet: the caller loads it and judges again. */
export class ShellParserNotReady extends Error {
  constructor() {
    super('the shell parser is not loaded');
  }
}

let loading: Promise<TsParser> | undefined;
let parser: TsParser | undefined;

/**
 * Loads web-tree-sitter and the tree-sitter-bash grammar. Lazy: the wasm is read on the first
 * shell judgement, never at import, so starting the CLI costs nothing.
 */
export function loadShellParser(): Promise<TsParser> {
  loading ??= (async () => {
    try {
      const { Parser, Language } = await import('web-tree-sitter');
      await Parser.init();
      const wasm = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
      const bash = await Language.load(wasm);
      const created = new Parser();
      created.setLanguage(bash);
      parser = created;
      return created;
    } catch (cause) {
      loading = undefined;
      throw new PermissionError(
        PERMISSION_ERRORS.ASSISTANT_PERMISSION_PARSER_FAILED,
        `the shell parser (web-tree-sitter with tree-sitter-bash) could not be loaded, so shell commands cannot be judged: ${(cause as Error)?.message ?? cause}; reinstall assistant's dependencies (npm ci)`,
        { plugin: 'permissions', cause },
      );
    }
  })();
  return loading;
}

/** True once the grammar is loaded and `parseScriptSync` can be used. */
export function shellParserReady(): boolean {
  return parser !== undefined;
}

/** Parses a script with the loaded grammar; undefined when it is not loaded yet. */
export function parseWithTreeSitter(source: string): ParsedScript | undefined {
  if (!parser) return undefined;
  const tree = parser.parse(source);
  if (!tree) return undefined;
  return { root: tree.rootNode, dispose: () => tree.delete() };
}

/**
 * Parses a script: the mini parser for the simple subset, tree-sitter for the rest. Throws
 * ShellParserNotReady when tree-sitter is needed and not loaded.
 */
export function parseScriptSync(source: string): ParsedScript {
  const parsed = parseSimpleScript(source) ?? parseWithTreeSitter(source);
  if (!parsed) throw new ShellParserNotReady();
  return parsed;
}

/** True when `node` is one of a case item's patterns (not a statement under it). */
export function isPatternNode(node: SyntaxNode, item: SyntaxNode): boolean {
  return item.childrenForFieldName('value').some((v) => v.id === node.id);
}

/** True when a command named `name` appears anywhere under `node` (a function calling itself). */
export function containsCommandNamed(node: SyntaxNode, name: string): boolean {
  if (node.type === 'command' && node.childForFieldName('name')?.text === name) return true;
  return node.namedChildren.some((child) => containsCommandNamed(child, name));
}
