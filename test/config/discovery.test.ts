import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const env = isolatedEnv();

/** Each form sets limits.maxTurns to a distinct value so the test knows which file was read. */
const FORMS: Array<[string, (n: number) => string, Record<string, string>?]> = [
  ['.assistantrc', (n) => `{ "limits": { "maxTurns": ${n} } }`],
  ['.assistantrc', (n) => `limits:\n  maxTurns: ${n}\n`],
  ['.assistantrc.json', (n) => `{ "limits": { "maxTurns": ${n} } }`],
  ['.assistantrc.yaml', (n) => `limits:\n  maxTurns: ${n}\n`],
  ['.assistantrc.yml', (n) => `limits: { maxTurns: ${n} }\n`],
  ['.assistantrc.js', (n) => `export default { limits: { maxTurns: ${n} } };\n`, { 'package.json': '{"type":"module"}' }],
  ['.assistantrc.mjs', (n) => `export default { limits: { maxTurns: ${n} } };\n`],
  ['.assistantrc.cjs', (n) => `module.exports = { limits: { maxTurns: ${n} } };\n`],
  ['assistant.config.js', (n) => `module.exports = { limits: { maxTurns: ${n} } };\n`],
  ['assistant.config.mjs', (n) => `export default { limits: { maxTurns: ${n} } };\n`],
  ['assistant.config.cjs', (n) => `module.exports = { limits: { maxTurns: ${n} } };\n`],
  ['package.json', (n) => JSON.stringify({ name: 'p', assistant: { limits: { maxTurns: n } } })],
];

describe('config discovery', () => {
  FORMS.forEach(([file, content, extra], i) => {
    const value = 11 + i;
    it(`reads ${file}${i === 1 ? ' (YAML)' : ''}`, async () => {
      const dir = makeProject({ ...extra, [file]: content(value) });
      const config = await loadConfig({ cwd: dir, env });
      expect(config.values.limits?.maxTurns).toBe(value);
      expect(config.projectFile).toBe(join(dir, file));
      expect(config.projectRoot).toBe(dir);
      expect(config.sources['/limits/maxTurns']).toBe(join(dir, file));
    });
  });

  it('searches upward from the working directory', async () => {
    const root = makeProject({ '.assistantrc': 'limits: { maxTurns: 42 }\n' });
    const deep = join(root, 'a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    const config = await loadConfig({ cwd: deep, env });
    expect(config.values.limits?.maxTurns).toBe(42);
    expect(config.projectRoot).toBe(root);
    expect(config.cwd).toBe(deep);
  });

  it('stops at the nearest config, ignoring package.json files without an assistant key', async () => {
    const root = makeProject({
      '.assistantrc': 'limits: { maxTurns: 1 }\n',
      'pkg/package.json': '{"name":"inner"}',
      'pkg/sub/.assistantrc.json': '{"limits":{"maxTurns":2}}',
    });
    expect((await loadConfig({ cwd: join(root, 'pkg'), env })).values.limits?.maxTurns).toBe(1);
    expect((await loadConfig({ cwd: join(root, 'pkg', 'sub'), env })).values.limits?.maxTurns).toBe(2);
  });

  it('uses the git root as project root when there is no config file', async () => {
    const root = makeProject({ '.git/HEAD': 'ref: refs/heads/main\n', 'src/x.ts': '' });
    const config = await loadConfig({ cwd: join(root, 'src'), env });
    expect(config.projectFile).toBeUndefined();
    expect(config.projectRoot).toBe(root);
    expect(config.files).toEqual([]);
  });

  it('--config names the file explicitly', async () => {
    const dir = makeProject({ 'custom.yaml': 'limits: { maxTurns: 9 }\n', '.assistantrc': 'limits: { maxTurns: 1 }\n' });
    const config = await loadConfig({ cwd: dir, env, configFile: 'custom.yaml' });
    expect(config.values.limits?.maxTurns).toBe(9);
    await expect(loadConfig({ cwd: dir, env, configFile: 'missing.yaml' })).rejects.toMatchObject({ code: 'ASSISTANT_CONFIG_NOT_FOUND' });
  });
});
