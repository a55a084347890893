import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { estimateTextTokens } from '../../dist/core/kits/provider/index.js';
import { projectHash } from '../../dist/core/index.js';
import { env } from './support/session.js';
import { makeProject, writeFiles } from '../support/project.js';

async function mapOf(dir: string) {
  const kernel = await createKernel({ config: await loadConfig({ cwd: dir, env }), headless: true });
  const system = await kernel.hooks.systemPrompt.promise([], { kind: 'turn' });
  return { section: system.find((s) => s.id === 'project-map'), again: await kernel.hooks.systemPrompt.promise([], { kind: 'turn' }) };
}

describe('project map', () => {
  it('lists the project tree, honouring every .gitignore and never entering .git or node_modules', async () => {
    const dir = makeProject({
      '.gitignore': 'dist/\n*.log\n',
      'package.json': '{}',
      'src/index.ts': '',
      'src/core/kernel.ts': '',
      'src/core/.gitignore': 'generated.ts\n',
      'src/core/generated.ts': '',
      'dist/index.js': '',
      'debug.log': '',
      'node_modules/dep/index.js': '',
    });
    mkdirSync(join(dir, '.git'));
    writeFiles(dir, { '.git/HEAD': 'ref' });
    const { section, again } = await mapOf(dir);
    expect(section?.part).toBe('projectMap');
    const lines = section!.text.split('\n').slice(2, -1);
    expect(lines).toEqual(['src/', '  core/', '    .gitignore', '    kernel.ts', '  index.ts', '.gitignore', 'package.json']);
    for (const hidden of ['dist', 'debug.log', 'generated.ts', 'node_modules', 'HEAD']) expect(section!.text).not.toContain(hidden);
    expect(again.find((s) => s.id === 'project-map')).toBe(section);
  });

  it('skips .git and node_modules folders at any depth and in any case with no .gitignore, as the patterns would', async () => {
    const dir = makeProject({
      'pkg/node_modules/dep/index.js': '',
      'pkg/Node_Modules/dep/index.js': '',
      'pkg/sub/.GIT/config': '',
      'pkg/index.ts': '',
      // Files of those names are not folders: listed, as `node_modules/` would not match them.
      'docs/node_modules': '',
      'docs/.git': '',
    });
    const lines = (await mapOf(dir)).section!.text.split('\n').slice(2, -1);
    expect(lines).toEqual(['docs/', '  .git', '  node_modules', 'pkg/', '  sub/ (0 files)', '  index.ts']);
  });

  it('applies the exclude patterns of the config', async () => {
    const dir = makeProject({ '.assistantrc': JSON.stringify({ projectMap: { exclude: ['*.snap', 'fixtures/'] } }), 'a.ts': '', 'a.snap': '', 'fixtures/x.ts': '', 'src/fixtures/y.ts': '' });
    const text = (await mapOf(dir)).section!.text;
    expect(text).toContain('a.ts');
    for (const hidden of ['a.snap', 'fixtures']) expect(text).not.toContain(hidden);
  });

  it('expands folders level by level only while the map fits its token budget', async () => {
    const files: Record<string, string> = { '.assistantrc': JSON.stringify({ projectMap: { maxTokens: 120 } }) };
    for (let a = 0; a < 4; a++) for (let b = 0; b < 5; b++) for (let c = 0; c < 6; c++) files[`pkg${a}/mod${b}/file${c}.ts`] = '';
    const dir = makeProject(files);
    const { section } = await mapOf(dir);
    const body = section!.text.split('\n').slice(2, -1).join('\n');
    expect(estimateTextTokens(body)).toBeLessThanOrEqual(120);
    expect(body).toContain('pkg0/\n  mod0/ (6 files)');
    expect(body).not.toContain('file0.ts');
    const big = makeProject({ ...files, '.assistantrc': JSON.stringify({ projectMap: { maxTokens: 2000 } }) });
    expect((await mapOf(big)).section!.text).toContain('    file5.ts');
  });

  it('does not block on a FIFO named .gitignore (a cloned repository is untrusted)', async () => {
    const dir = makeProject({ 'src/a.ts': '', 'lib/b.ts': '' });
    execFileSync('mkfifo', [join(dir, 'src', '.gitignore')]);
    const { section } = await mapOf(dir);
    expect(section!.text).toContain('lib/');
    expect(section!.text).toContain('a.ts');
  });

  describe('kept between starts', () => {
    // The cache of a project's map, in the user's cache folder (a temp home per test file).
    const cacheFile = (dir: string) => join(process.env.XDG_CACHE_HOME!, 'assistant', 'project-map', `${projectHash(dir)}.json`);
    const lines = (text: string) => text.split('\n').slice(2, -1);

    it('is taken as it was while no folder or .gitignore changed, and made again when one does', async () => {
      const dir = makeProject({ 'src/a.ts': '', 'src/.gitignore': 'secret.ts\n', 'src/secret.ts': '', 'README.md': '' });
      const first = (await mapOf(dir)).section!.text;
      expect(lines(first)).toEqual(['src/', '  .gitignore', '  a.ts', 'README.md']);
      // The kept map is what the next start shows: marked here to tell it from a new scan.
      const kept = JSON.parse(readFileSync(cacheFile(dir), 'utf8'));
      writeFileSync(cacheFile(dir), JSON.stringify({ ...kept, map: first.replace('README.md', 'README.md (kept)') }));
      expect((await mapOf(dir)).section!.text).toContain('README.md (kept)');
      // A new file: its folder's listing differs, the map is made again.
      writeFiles(dir, { 'src/b.ts': '' });
      expect(lines((await mapOf(dir)).section!.text)).toEqual(['src/', '  .gitignore', '  a.ts', '  b.ts', 'README.md']);
      // A .gitignore edited in place changes no folder: it is read again all the same.
      writeFiles(dir, { 'src/.gitignore': 'b.ts\n' });
      expect(lines((await mapOf(dir)).section!.text)).toEqual(['src/', '  .gitignore', '  a.ts', '  secret.ts', 'README.md']);
    });

    it('is made again under other options, and over a damaged cache file', async () => {
      const dir = makeProject({ 'a.ts': '', 'b.snap': '' });
      expect(lines((await mapOf(dir)).section!.text)).toEqual(['a.ts', 'b.snap']);
      writeFiles(dir, { '.assistantrc': JSON.stringify({ projectMap: { exclude: ['*.snap'] } }) });
      expect(lines((await mapOf(dir)).section!.text)).toEqual(['.assistantrc', 'a.ts']);
      const kept = JSON.parse(readFileSync(cacheFile(dir), 'utf8'));
      const forged = [{ ...kept, folders: { ...kept.folders, '': { s: '', n: 'a\0b', d: '0' } }, map: 'forged' }, { ...kept, ignores: { '': 7 }, map: 'forged' }, { ...kept, v: 99, map: 'forged' }];
      for (const junk of ['{not json', 'null', ...forged.map((f) => JSON.stringify(f))]) {
        writeFileSync(cacheFile(dir), junk);
        expect(lines((await mapOf(dir)).section!.text), junk).toEqual(['.assistantrc', 'a.ts']);
      }
    });

    it('takes an unchanged folder listed 2 s after its last change from the cache, without listing it', async () => {
      const dir = makeProject({ 'src/a.ts': '', 'lib/b.ts': '' });
      // Only a folder whose times were 2 s old when it was listed is trusted by its times alone.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      await mapOf(dir);
      const kept = JSON.parse(readFileSync(cacheFile(dir), 'utf8'));
      expect(kept.folders['src/'].s).not.toBe('');
      // A name only the cache has: it shows only if src/ is taken from the cache.
      kept.folders['src/'].n += '\0ghost.ts';
      kept.folders['src/'].d += '0';
      writeFileSync(cacheFile(dir), JSON.stringify(kept));
      // A new file at the top: the map is made again, src/ from the cache, the top listed afresh.
      writeFiles(dir, { 'top.ts': '' });
      expect(lines((await mapOf(dir)).section!.text)).toEqual(['lib/', '  b.ts', 'src/', '  a.ts', '  ghost.ts', 'top.ts']);
    });
  });

  it('can be turned off', async () => {
    const dir = makeProject({ '.assistantrc': JSON.stringify({ projectMap: { enabled: false } }), 'a.ts': '' });
    expect((await mapOf(dir)).section).toBeUndefined();
  });
});
