// Every key docs/configuration.md documents must be accepted by the real loader and the plugins'
// schemas: a documented key the schema rejects (`provider.thinkingBudget`) sends users into an error.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const DOC = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

/** A documented key: its dotted path (`<name>` placeholders kept), its section and its default cell. */
interface DocumentedKey {
  key: string;
  section: string;
  defaultCell: string;
}

/** A table row's cells; `\|` inside a cell is not a separator. */
function cellsOf(line: string): string[] {
  return line.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/** Config keys the doc's `| key |` tables document. */
function documentedKeys(): DocumentedKey[] {
  const keys: DocumentedKey[] = [];
  let header: string[] | undefined;
  let section = '';
  for (const line of DOC.split('\n')) {
    if (line.startsWith('#')) section = line.replace(/^#+\s*/, '');
    // `| option |` tables list a plugin's options given in its `plugins` entry (tool-bash).
    if (/^\|\s*(key|option)\s*\|/.test(line)) header = cellsOf(line);
    else if (!line.startsWith('|')) header = undefined;
    else if (header && !/^\|\s*-/.test(line)) {
      const cells = cellsOf(line);
      const names = [...cells[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const defaultCell = cells[header.indexOf('default')] ?? '';
      // "`context.compaction.headChars`, `tailChars`": later names share the first one's parent.
      const parent = names[0]?.includes('.') ? names[0].slice(0, names[0].lastIndexOf('.') + 1) : '';
      names.forEach((name, i) => keys.push({ key: i > 0 && !name.includes('.') ? parent + name : name, section, defaultCell }));
    }
  }
  return keys;
}

/** The `yaml` examples in the doc's Keys section: each is a config a user may copy. */
function documentedExamples(): string[] {
  const keysSection = DOC.slice(DOC.indexOf('## Keys'));
  return [...keysSection.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** Whether `config` (JSON or YAML text) loads and every plugin and selection accepts it. */
async function problemWith(file: string, text: string): Promise<string | undefined> {
  const dir = makeProject();
  writeFileSync(join(dir, file), text);
  try {
    const config = await loadConfig({ cwd: dir, env: isolatedEnv(), noUserConfig: true });
    const kernel = await createKernel({ config, headless: true, logLevel: 'silent', checkSelections: true });
    await kernel.shutdown();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const HOOK_LIST = [{ hooks: [{ type: 'command', command: 'true' }] }];

/** Values to try for a key: the documented default first, then one of each common shape. */
function candidates({ defaultCell }: DocumentedKey): unknown[] {
  const fromDefault: unknown[] = [];
  const literal = defaultCell.replace(/^`|`$/g, '');
  for (const text of [literal, literal.split(',')[0]!.trim()])
    try {
      fromDefault.push(JSON.parse(text));
    } catch {
      if (/^[\w.:/-]+$/.test(text)) fromDefault.push(text);
    }
  return [...fromDefault, true, 1, 2000, 0.5, 'x', ['x'], {}, HOOK_LIST, 'http://127.0.0.1:1', 'redis://127.0.0.1:1', 'auto', 'spool', 'stdio', 'http', 'plan'];
}

/** `{ a: { b: value } }` for the dotted key `a.b`. */
function nested(key: string, value: unknown): Record<string, unknown> {
  return key.split('.').reduceRight<unknown>((inner, part) => ({ [part]: inner }), value) as Record<string, unknown>;
}

/** The smallest config that sets `key` to `value`, with what its neighbours require (a price needs input and output). */
function configWith({ key, section }: DocumentedKey, value: unknown): Record<string, unknown> {
  const plugin = /^([\w-]+) options$/.exec(section)?.[1];
  if (plugin) return { plugins: [[plugin, nested(key, value)]] };
  if (section.startsWith('`pricing`')) return { pricing: { anthropic: { 'example-model': { input: 1, output: 1, [key.split(',')[0]!]: value } } } };
  const path = key.replace(/<name>/g, key.startsWith('agents.') ? 'general' : 'example').split('.');
  const server = /\.(url|headers|type)$/.test(key) ? { url: 'http://127.0.0.1:1' } : { command: 'true' };
  const root: Record<string, unknown> = key.startsWith('mcpServers.') ? { mcpServers: { example: server } } : {};
  let node = root;
  for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return root;
}

describe('docs/configuration.md', () => {
  const keys = documentedKeys();

  it('documents keys (the parser found the tables)', () => {
    expect(keys.length).toBeGreaterThan(60);
    expect(keys.map((k) => k.key)).toContain('provider.model');
    expect(keys.map((k) => k.key)).toContain('context.compaction.tailChars');
    expect(keys).toContainEqual(expect.objectContaining({ key: 'environment.inherit', section: 'tool-bash options' }));
  });

  it('every documented key validates through the real loader with some value', { timeout: 300_000 }, async () => {
    const rejected: string[] = [];
    for (const documented of keys) {
      let first: string | undefined;
      for (const value of candidates(documented)) {
        const problem = await problemWith('.assistantrc.json', JSON.stringify(configWith(documented, value)));
        if (!problem) {
          first = undefined;
          break;
        }
        first ??= problem;
      }
      if (first) rejected.push(`${documented.key}: ${first.split('\n').slice(0, 3).join(' ')}`);
    }
    expect(rejected).toEqual([]);
  });

  it('every yaml example in the Keys section validates as a whole', { timeout: 120_000 }, async () => {
    const examples = documentedExamples();
    expect(examples.length).toBeGreaterThan(1);
    for (const example of examples) expect(await problemWith('.assistantrc.yaml', example), example).toBeUndefined();
  });
});
