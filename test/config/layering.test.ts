import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { isolatedEnv, makeProject, writeFiles } from '../support/project.js';

describe('config layering', () => {
  it('stacks defaults < user global < project < flags, recording where each value came from', async () => {
    const env = isolatedEnv();
    writeFiles(env.ASSISTANT_CONFIG_DIR!, {
      'config.yaml': 'provider:\n  name: openai\n  model: user-model\nlimits:\n  maxTurns: 7\n  maxToolFailures: 5\n',
    });
    const dir = makeProject({ '.assistantrc.json': JSON.stringify({ provider: { model: 'project-model' }, limits: { maxTurns: 8 } }) });
    const config = await loadConfig({ cwd: dir, env, flags: { limits: { maxTurns: 9 } } });
    const userFile = join(env.ASSISTANT_CONFIG_DIR!, 'config.yaml');
    const projectFile = join(dir, '.assistantrc.json');
    expect(config.values.provider).toEqual({ name: 'openai', model: 'project-model' });
    expect(config.values.limits).toMatchObject({ maxTurns: 9, maxToolFailures: 5, repeatedCallLimit: 3 });
    expect(config.sources['/provider/name']).toBe(userFile);
    expect(config.sources['/provider/model']).toBe(projectFile);
    expect(config.sources['/limits/maxTurns']).toBe('flags');
    expect(config.sources['/limits/maxToolFailures']).toBe(userFile);
    expect(config.sources['/limits/repeatedCallLimit']).toBe('defaults');
    expect(config.files).toEqual([userFile, projectFile]);
  });

  it('replaces arrays, but accumulates plugin entries and permission rules', async () => {
    const env = isolatedEnv();
    writeFiles(env.ASSISTANT_CONFIG_DIR!, {
      'config.json': JSON.stringify({ permissions: { allow: ['Read(**)'] }, context: { keep: ['a', 'b'] }, plugins: ['./user-plugin.js'] }),
    });
    const dir = makeProject({
      '.assistantrc': JSON.stringify({ permissions: { allow: ['Bash(npm test)', 'Read(**)'] }, context: { keep: ['c'] }, plugins: ['./project-plugin.js'] }),
    });
    const config = await loadConfig({ cwd: dir, env, flags: { permissions: { deny: ['Bash(rm:*)'] } } });
    expect(config.values.permissions?.allow).toEqual(['Read(**)', 'Bash(npm test)']);
    expect(config.values.permissions?.deny).toEqual(['Bash(rm:*)']);
    expect(config.values.context?.keep).toEqual(['c']);
    expect(config.plugins.filter((p) => p.source !== 'defaults').map((p) => [p.spec, p.baseDir])).toEqual([
      ['./user-plugin.js', env.ASSISTANT_CONFIG_DIR],
      ['./project-plugin.js', dir],
    ]);
  });

  it('extends a relative file and an installed preset package, the extending file winning', async () => {
    const env = isolatedEnv();
    const dir = makeProject({
      'node_modules/@acme/assistant-preset/package.json': JSON.stringify({ name: '@acme/assistant-preset', main: 'preset.json' }),
      'node_modules/@acme/assistant-preset/preset.json': JSON.stringify({ limits: { maxTurns: 3, maxToolFailures: 9 }, plugins: ['./preset-plugin.js'] }),
      'shared/base.yaml': 'extends: "@acme/assistant-preset"\nprovider:\n  name: openai\n  model: base-model\nlimits:\n  maxTurns: 4\n',
      '.assistantrc.yaml': 'extends: ./shared/base.yaml\nprovider:\n  model: mine\n',
    });
    const config = await loadConfig({ cwd: dir, env });
    expect(config.values.provider).toEqual({ name: 'openai', model: 'mine' });
    expect(config.values.limits).toMatchObject({ maxTurns: 4, maxToolFailures: 9 });
    expect(config.files).toEqual([
      join(dir, 'node_modules/@acme/assistant-preset/preset.json'),
      join(dir, 'shared/base.yaml'),
      join(dir, '.assistantrc.yaml'),
    ]);
    // A preset's relative plugin paths resolve from the preset's own folder.
    expect(config.plugins.find((p) => p.spec === './preset-plugin.js')).toMatchObject({ spec: './preset-plugin.js', baseDir: join(dir, 'node_modules/@acme/assistant-preset') });
  });

  it('reports an extends cycle and a missing extends target', async () => {
    const env = isolatedEnv();
    const cyc = makeProject({ '.assistantrc': 'extends: ./a.yaml\n', 'a.yaml': 'extends: ./b.yaml\n', 'b.yaml': 'extends: ./a.yaml\n' });
    await expect(loadConfig({ cwd: cyc, env })).rejects.toMatchObject({ code: 'ASSISTANT_CONFIG_EXTENDS_CYCLE' });
    const missing = makeProject({ '.assistantrc': 'extends: ./nope.yaml\n' });
    await expect(loadConfig({ cwd: missing, env })).rejects.toMatchObject({
      code: 'ASSISTANT_CONFIG_NOT_FOUND',
      message: expect.stringContaining('nope.yaml'),
    });
  });

  it('validates each layer: the error names the file, the JSON path and what was expected', async () => {
    const env = isolatedEnv();
    const dir = makeProject({ '.assistantrc': 'limits:\n  maxTurns: "ten"\npermissions:\n  mode: yolo\n' });
    const error = await loadConfig({ cwd: dir, env }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_CONFIG_INVALID', file: join(dir, '.assistantrc') });
    const message = (error as Error).message;
    expect(message).toContain(join(dir, '.assistantrc'));
    expect(message).toContain('/limits/maxTurns: must be integer (got "ten")');
    expect(message).toContain('/permissions/mode: must be one of "default", "acceptEdits", "plan", "bypass" (got "yolo")');
  });

  it('reports unparseable YAML and JSON, and a throwing JavaScript config, with the file and the parser reason', async () => {
    const env = isolatedEnv();
    const yaml = makeProject({ '.assistantrc.yaml': 'limits:\n  maxTurns: [1, 2\n' });
    await expect(loadConfig({ cwd: yaml, env })).rejects.toMatchObject({
      code: 'ASSISTANT_CONFIG_PARSE',
      message: `${join(yaml, '.assistantrc.yaml')}: cannot be parsed: unexpected end of the stream within a flow collection (line 3, column 1)`,
    });
    const json = makeProject({ '.assistantrc.json': '{ "limits": { "maxTurns": 3, } ' });
    await expect(loadConfig({ cwd: json, env })).rejects.toMatchObject({
      code: 'ASSISTANT_CONFIG_PARSE',
      file: join(json, '.assistantrc.json'),
      message: expect.stringMatching(/\.assistantrc\.json: cannot be parsed: .*JSON at position \d+/),
    });
    const throwing = makeProject({ 'assistant.config.mjs': 'throw new Error("no config today");' });
    await expect(loadConfig({ cwd: throwing, env })).rejects.toMatchObject({
      message: `${join(throwing, 'assistant.config.mjs')}: cannot be parsed: no config today`,
    });
  });

});
