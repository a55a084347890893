// The plugin-factory sample of docs/plugins.md ("no deploys on Fridays", a policy with an injected
// clock) and its test, extracted from the doc and run as written: the test sample's `it` runs here.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

/** The ```ts block of docs/plugins.md marked `<!-- file: name -->`. */
function docSample(markdown: string, file: string): string {
  const match = markdown.match(new RegExp(`<!-- file: ${file.replace(/\./g, '\\.')} -->\\n\`\`\`ts\\n([\\s\\S]*?)\\n\`\`\`\\n`));
  if (!match) throw new Error(`docs/plugins.md has no \`\`\`ts block marked <!-- file: ${file} -->`);
  return match[1]! + '\n';
}

const doc = readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'assistant-factory-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const policy = docSample(doc, 'no-friday-deploys.ts');
const test = docSample(doc, 'no-friday-deploys.test.ts');
writeFileSync(join(dir, 'no-friday-deploys.ts'), policy);
writeFileSync(join(dir, 'no-friday-deploys.test.ts'), test);

it('is a factory closed over its clock, and the default export is the policy on the system clock', async () => {
  const module = await import(pathToFileURL(join(dir, 'no-friday-deploys.ts')).href);
  expect(module.default).toMatchObject({ name: 'no-friday-deploys' });
  const a = module.noFridayDeploys({ now: () => new Date() });
  const b = module.noFridayDeploys({ now: () => new Date() });
  expect(a).not.toBe(b);
  // The test sample's cases are really there (a sample with no `it` would pass vacuously).
  expect(test).toMatch(/getDay|2026-11-27/);
  expect(test).toMatch(/\bit\(/);
});

// Registers the doc's own test case in this file.
await import(pathToFileURL(join(dir, 'no-friday-deploys.test.ts')).href);
