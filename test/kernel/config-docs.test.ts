import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coreConfigSchema } from '../../dist/config/schema.js';
import type { JsonSchema } from '../../dist/core/index.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const lines = doc.split('\n');

/** A key is documented when its full path is in backticks, or a row naming its parent lists it. */
function documented(path: string): boolean {
  if (doc.includes('`' + path + '`') || doc.includes('`' + path + '.')) return true;
  const parent = path.slice(0, path.lastIndexOf('.'));
  const leaf = path.slice(path.lastIndexOf('.') + 1);
  return lines.some((line) => line.includes('`' + parent + '.') && line.includes('`' + leaf + '`'));
}

/** The option paths of a schema: its properties, and one level into object-valued properties. */
function optionPaths(prefix: string, schema: JsonSchema | undefined, depth = 1): string[] {
  const properties = (schema as { properties?: Record<string, JsonSchema> } | undefined)?.properties ?? {};
  return Object.entries(properties).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const nested = depth > 0 && (value as { properties?: object }).properties ? optionPaths(path, value, depth - 1) : [];
    return [path, ...nested];
  });
}

async function builtinPlugins(): Promise<Array<{ name: string; configKey?: string; optionsSchema?: JsonSchema }>> {
  const root = new URL('../../dist/plugins/', import.meta.url);
  const names = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  return Promise.all(names.map(async (name) => (await import(new URL(`${name}/index.js`, root).href)).default));
}

describe('docs/configuration.md', () => {
  it('documents every core key', () => {
    const missing = optionPaths('', coreConfigSchema).filter((path) => path !== '$schema' && !documented(path));
    expect(missing).toEqual([]);
  });

  it("documents every option of every built-in plugin's config key", async () => {
    const missing: string[] = [];
    for (const plugin of await builtinPlugins()) {
      if (!plugin.configKey) continue;
      for (const path of optionPaths(plugin.configKey, plugin.optionsSchema, 0)) if (!documented(path)) missing.push(`${path} (${plugin.name})`);
    }
    expect(missing).toEqual([]);
  });
});
