import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createControlFiles } from '../../core/index.js';
import { makeProject } from '../support/project.js';

describe('the control-files registry', () => {
  it('names config files from the working directory up, package.json only with an assistant key, and folders with what is below them', () => {
    const root = makeProject({ 'package.json': '{"name":"x"}', 'src/deep/a.ts': '' });
    const cwd = join(root, 'src', 'deep');
    const files = createControlFiles({ HOME: join(root, 'home') });
    expect(files.reason(join(root, '.assistantrc'), root, cwd)).toMatch(/configuration/);
    expect(files.reason(join(root, 'src', '.assistantrc.json'), root, cwd)).toMatch(/configuration/);
    expect(files.reason(join(root, '.assistant', 'settings.local.json'), root, cwd)).toMatch(/settings/);
    expect(files.reason(join(root, '.git', 'hooks', 'pre-commit'), root, cwd)).toMatch(/hooks/);
    expect(files.reason(join(root, 'package.json'), root, cwd)).toBeUndefined();
    writeFileSync(join(root, 'package.json'), '{"name":"x","assistant":{}}');
    expect(files.reason(join(root, 'package.json'), root, cwd)).toMatch(/configuration/);
    expect(files.reason(join(root, 'src', 'a.ts'), root, cwd)).toBeUndefined();
  });

  it('matches without regard to case (the same file on macOS and Windows), and takes plugins\' declarations', () => {
    const root = makeProject({});
    mkdirSync(join(root, 'sub'));
    const files = createControlFiles({ HOME: join(root, 'home') });
    expect(files.reason(join(root, '.ASSISTANTRC'), root)).toMatch(/configuration/);
    expect(files.reason(join(root, '.Assistant', 'x.json'), root)).toMatch(/settings/);
    expect(files.reason(join(root, 'RULES.md'), root)).toBeUndefined();
    files.declare({ path: 'rules.md', why: 'standing rules', searched: true, declaredBy: 'a-plugin' });
    expect(files.reason(join(root, 'RULES.md'), root)).toBe('standing rules');
    expect(files.reason(join(root, 'sub', 'rules.md'), root, join(root, 'sub'))).toBe('standing rules');
  });
});
