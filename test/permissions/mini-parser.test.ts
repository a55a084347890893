// The mini parser (plugins/permissions/policy/shell/mini-parser.ts) stands in for tree-sitter on
// simple commands. Proof that it judges exactly as tree-sitter does: for every input it accepts,
// its syntax tree is tree-sitter's (type, text, fields, children, recursively) and the whole
// analysis is deep-equal; over a hand-written corpus, the policy corpora and a seeded fuzz.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSimpleScript } from '../../dist/plugins/permissions/policy/shell/mini-parser.js';
import { loadShellParser, parseWithTreeSitter, type ParsedScript, type SyntaxNode } from '../../dist/plugins/permissions/policy/shell/parser.js';
import { ScriptWalker } from '../../dist/plugins/permissions/policy/shell/walk.js';
import { corpus, policyFixture } from './support.js';

/** Every field name of the tree-sitter-bash grammar. */
const FIELDS = ['alternative', 'argument', 'body', 'condition', 'consequence', 'descriptor', 'destination', 'fallthrough', 'index', 'initializer', 'left', 'name', 'operator', 'redirect', 'right', 'termination', 'update', 'value', 'variable'];

interface Shape {
  type: string;
  text: string;
  named: boolean;
  error: boolean;
  field: string | null;
  fields: Record<string, string[]>;
  namedChildren: string[];
  children: Shape[];
}

/** A node as data: tree-sitter's own field of each child, the mini parser's found through childrenForFieldName. */
function shape(node: SyntaxNode, field: string | null = null): Shape {
  const fieldOf = (child: SyntaxNode, i: number): string | null =>
    'fieldNameForChild' in node ? (node as unknown as { fieldNameForChild(i: number): string | null }).fieldNameForChild(i) : (FIELDS.find((f) => node.childrenForFieldName(f).some((c) => c.id === child.id)) ?? null);
  const fields: Record<string, string[]> = {};
  for (const f of FIELDS) {
    const all = node.childrenForFieldName(f).map((c) => `${c.type}:${c.text}`);
    if (all.length) fields[f] = [...all, `first ${node.childForFieldName(f)?.text}`];
  }
  return {
    type: node.type,
    text: node.text,
    named: node.isNamed,
    error: node.hasError,
    field,
    fields,
    namedChildren: node.namedChildren.map((c) => `${c.type}:${c.text}`),
    children: node.children.map((c, i) => shape(c, fieldOf(c, i))),
  };
}

/** A deeper or different fuzz on demand: ASSISTANT_FUZZ_SCALE=10 ASSISTANT_FUZZ_SEED=7 (the defaults run in CI). */
const SCALE = Math.max(1, Number(process.env.ASSISTANT_FUZZ_SCALE) || 1);
const SEED = Number(process.env.ASSISTANT_FUZZ_SEED) || 0;

const treeSitterOnly = (source: string): ParsedScript => {
  const parsed = parseWithTreeSitter(source);
  if (!parsed) throw new Error('tree-sitter is not loaded');
  return parsed;
};

let options: { cwd: string; home: string; allowSudo: boolean; trustTests: boolean };

/** Checks one input; returns whether the mini parser accepted it, and any difference found. */
function differential(source: string): { accepted: boolean; problem?: string } {
  const mini = parseSimpleScript(source);
  const full = treeSitterOnly(source);
  try {
    if (mini && !isDeepStrictEqual(shape(mini.root), shape(full.root)))
      return { accepted: true, problem: `tree differs for ${JSON.stringify(source)}:\n${JSON.stringify(shape(mini.root))}\n${JSON.stringify(shape(full.root))}` };
  } finally {
    full.dispose();
  }
  // Accepted or not, the engine's chooser (the default) judges as tree-sitter alone does, payloads included.
  for (const walkOptions of [options, { ...options, allowSudo: true, trustTests: true }]) {
    const chosen = new ScriptWalker(walkOptions).run(source);
    const reference = new ScriptWalker(walkOptions, treeSitterOnly).run(source);
    if (!isDeepStrictEqual(chosen, reference)) return { accepted: !!mini, problem: `analysis differs for ${JSON.stringify(source)}:\n${JSON.stringify(chosen)}\n${JSON.stringify(reference)}` };
  }
  return { accepted: !!mini };
}

function checkAll(inputs: string[]): { accepted: number; problems: string[] } {
  let accepted = 0;
  const problems: string[] = [];
  for (const input of inputs) {
    const result = differential(input);
    if (result.accepted) accepted++;
    if (result.problem && problems.length < 40) problems.push(result.problem.slice(0, result.problem.indexOf(':\n')));
  }
  return { accepted, problems };
}

/** A small seeded PRNG (mulberry32): the fuzz is the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['git', 'status', '--short', 'ls', '-la', 'src', 'a.txt', 'src/a.ts', '10', '-5', '0x1f', '0x10', '-0x5', '0x', '1.5', '007', '-', '--', '%1', '%', '@', '+x', 'a+b', 'a,b', ':', '.', '..', '/', './a', '-/', 'rm', '-rf', 'sh', 'bash', '-c', 'eval', 'exec', 'echo', 'xargs', 'cat', 'head', 'sudo', 'env', 'cd', 'npm', 'test', 'x_y', 'base64', '-d', 'find', '-exec', 'curl', 'python3', '-m', 'node', '-e', 'source', 'command', 'builtin', 'timeout', '5', 'nice', 'bHMgPiB4', 'cm0gLXJmIC8K', 'user@host', 'x%y', 'a:b', 'a+:b', 'a+', 'pkg@1.2', 'HEAD:src/a.ts', '_x', '_', '0', '-x%', 'x@', '@x', 'x?', 'a-b', 'x-', '1-', '0_', '-_', 'a.b-c', 'x,', ',x', '--color=auto', 'a=b', '=x', 'x=', '=', '==', 'a==b', 'x=y=z', '--format=%h', '-Dkey=value', 'a+=b', '+=', 'PATH=/x', 'LD_PRELOAD=./x.so', 'GIT_DIR=.', '-o=x', '1=2', '%=', '@=x', 'x=:y', '--=', 'if=/dev/zero', 'of=out', 'bs=1M'];
const NAMES = ['git', 'ls', 'cat', 'rm', 'sh', 'bash', 'eval', 'exec', 'echo', 'xargs', 'head', 'sudo', 'env', 'cd', 'npm', 'test', 'find', 'curl', 'python3', 'node', 'source', 'command', 'builtin', 'timeout', 'nice', 'base64', 'a.b-c', '5', '1-', 'x-', './a', '..', '.', '/', 'Z9'];
const RESERVED = ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'export', 'declare', 'typeset', 'local', 'readonly', 'unset', 'unsetenv', '!', '{', '}', '[[', ']]', '[', ']', '((', '))'];
const OPERATORS = ['|', '&&', '||', ';', ';', '|', '&&', '&', '|&', ';;', '&&&', '|||', ';&', ';;&', '>', '<', '2>', '&>', '>&', '<<', '<<<', '(', ')', '\n'];
const META = [...'~=#*?[]{}!$"\'\\^<>()`&|;', '\n', '\r', '\v', '\f', '\u00a0', '\u3000', 'é', '\u0000'];
const SUBSET_CHARS = [...'abcxyzAZ019_./,:@%+=-'];

/** Commands built from subset words; in noisy ones, reserved words, stray operators and metacharacters mixed in. */
function tokenFuzz(next: () => number, count: number): string[] {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const blank = () => pick(['', ' ', ' ', ' ', '  ', '\t', ' \t']);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // Half stay in the subset (command names mostly plain), so the proof covers it widely.
    const noisy = next() < 0.5;
    const word = (first: boolean) => {
      const r = next();
      if (first && r < 0.7) return pick(NAMES);
      // Reserved words as arguments are plain words to both parsers (`echo done`).
      if (!noisy) return r < 0.9 ? pick(WORDS) : pick(RESERVED.filter((w) => /^[a-z]+$/.test(w)));
      if (r < 0.82) return pick(WORDS);
      if (r < 0.9) return pick(RESERVED);
      const base = pick(WORDS);
      const at = Math.floor(next() * (base.length + 1));
      return base.slice(0, at) + pick(META) + base.slice(at);
    };
    let text = next() < 0.1 ? blank() : '';
    const commands = 1 + Math.floor(next() * 5);
    for (let c = 0; c < commands; c++) {
      if (c) text += blank() + (!noisy || next() < 0.85 ? pick(['|', '&&', '||', ';']) : pick(OPERATORS)) + blank();
      const words = 1 + Math.floor(next() * 4);
      for (let w = 0; w < words; w++) text += (w ? (!noisy || next() < 0.97 ? pick([' ', ' ', '\t', '  ']) : pick(META)) : '') + word(w === 0);
    }
    if (next() < 0.1) text += blank() + pick([';', ' ;', ';', '&', '|']) + blank();
    out.push(text);
  }
  return out;
}

/** Short strings of single characters: subset characters, blanks, operator characters, metacharacters. */
function charFuzz(next: () => number, count: number): string[] {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 16);
    let text = '';
    for (let c = 0; c < length; c++) {
      const r = next();
      text += r < 0.6 ? pick(SUBSET_CHARS) : r < 0.75 ? pick([' ', '\t']) : r < 0.9 ? pick([...'|&;']) : pick(META);
    }
    out.push(text);
  }
  return out;
}

function handCorpus(): string[] {
  const text = readFileSync(new URL('./corpus/simple-shell.txt', import.meta.url), 'utf8');
  return text.split('\n').filter((line) => line.trim() && !line.startsWith('#')).map((line) => line.replaceAll('⏎', '\n').replaceAll('⇥', '\t'));
}

beforeAll(async () => {
  const fixture = policyFixture();
  options = { cwd: fixture.root, home: fixture.env.HOME!, allowSudo: false, trustTests: false };
  await loadShellParser();
});

describe('the mini shell parser builds tree-sitter-bash trees and judges as tree-sitter does', () => {
  it('on a hand-written corpus of agent commands and near misses', () => {
    const inputs = handCorpus();
    expect(inputs.length).toBeGreaterThan(200);
    const { accepted, problems } = checkAll(inputs);
    expect(problems).toEqual([]);
    expect(accepted).toBeGreaterThan(150);
  });

  it('on the policy corpora (read-only, mutating, blocked, secrets)', () => {
    const inputs = ['read-only.txt', 'mutating.txt', 'blocked.txt', 'secrets.txt'].flatMap((name) => corpus(name));
    const { accepted, problems } = checkAll(inputs);
    expect(problems).toEqual([]);
    expect(accepted).toBeGreaterThan(300);
  });

  it('on a seeded fuzz of commands near the subset', () => {
    const inputs = tokenFuzz(random(18 + SEED), 24000 * SCALE);
    const { accepted, problems } = checkAll(inputs);
    expect(problems).toEqual([]);
    // Most inputs land in the subset, so the proof covers it widely.
    expect(accepted).toBeGreaterThan(inputs.length / 4);
  }, 600_000 * SCALE);

  it('on a seeded fuzz of short strings of shell characters', () => {
    const inputs = charFuzz(random(21 + SEED), 16000 * SCALE);
    const { accepted, problems } = checkAll(inputs);
    expect(problems).toEqual([]);
    expect(accepted).toBeGreaterThan(inputs.length / 20);
  }, 600_000 * SCALE);

  it('leaves every excluded character, reserved word and other construct to tree-sitter', () => {
    for (const c of [...'~#*?[]{}!$"\'\\^<>()`&', '\n', '\r', '\v', '\f', '\u00a0', 'é', '\u0000']) {
      expect(parseSimpleScript(`ls a${c}b`), JSON.stringify(c)).toBeUndefined();
      expect(parseSimpleScript(`${c}ls`), JSON.stringify(c)).toBeUndefined();
    }
    // `=` only in arguments: a command word with one is an assignment (`a=b ls`, `ls; a=b`).
    for (const script of ['a=b ls', 'a=b', 'ls; a=b', 'ls && X=1 make', 'ls | a=b cat', '=x ls', 'ls=1', 'ls ==', 'ls =~', 'ls =x'])
      expect(parseSimpleScript(script), script).toBeUndefined();
    expect(parseSimpleScript('ls --color=auto')?.root.namedChildren[0]?.type).toBe('command');
    for (const word of RESERVED) expect(parseSimpleScript(`${word} ls`), word).toBeUndefined();
    for (const script of ['', ' ', 'ls &', 'ls |& cat', 'ls ;; pwd', ';ls', 'ls |', 'ls &&', 'ls || ; pwd', 'ls; ;'])
      expect(parseSimpleScript(script), script).toBeUndefined();
    expect(parseSimpleScript('git status --short')?.root.namedChildren[0]?.type).toBe('command');
  });
});
