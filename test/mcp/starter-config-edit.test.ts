// `mcp add` / `mcp remove` on YAML (issue #19): only the lines of the servers that change are
// touched, so the starter .assistantrc's comments keep their indentation and a round trip is byte
// for byte. (Re-rendering the document moved every comment after `permissions:` into it.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const env = isolatedEnv();
const cli = (dir: string, args: string[]) => runCli(args, { cwd: dir, env });

describe('mcp add and remove on a YAML .assistantrc', () => {
  it('append to the starter file without moving a comment, and remove back to the same bytes', async () => {
    const dir = makeProject();
    expect((await cli(dir, ['config', 'init'])).code).toBe(0);
    const file = join(dir, '.assistantrc');
    const starter = readFileSync(file, 'utf8');

    expect((await cli(dir, ['mcp', 'add', 'github', '-e', 'TOKEN=x', '--', 'npx', '-y', 'server-github'])).code).toBe(0);
    expect((await cli(dir, ['mcp', 'add', '--transport', 'http', 'docs', 'http://127.0.0.1:9/mcp'])).code).toBe(0);
    const added = readFileSync(file, 'utf8');
    expect(added.startsWith(starter)).toBe(true);
    expect(added.slice(starter.length)).toBe(
      ['mcpServers:', '  github:', '    command: npx', '    args:', '      - -y', '      - server-github', '    env:', '      TOKEN: x', '  docs:', '    type: http', '    url: http://127.0.0.1:9/mcp', ''].join('\n'),
    );

    expect((await cli(dir, ['mcp', 'remove', 'github'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(starter + ['mcpServers:', '  docs:', '    type: http', '    url: http://127.0.0.1:9/mcp', ''].join('\n'));
    expect((await cli(dir, ['mcp', 'remove', 'docs'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(starter);
  });

  it('keeps comments between servers and the file’s own indentation, and turns a flow mapping into a block', async () => {
    const dir = makeProject();
    const file = join(dir, '.assistantrc.yaml');
    const text = ['provider:', '    name: anthropic   # four spaces here', 'mcpServers:', '    # the linter', '    lint:', '        command: eslint-mcp', '# trailing comment', ''].join('\n');
    writeFileSync(file, text);
    expect((await cli(dir, ['mcp', 'add', 'db', '--', 'db-mcp', '--ro'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text.replace('# trailing comment', ['    db:', '        command: db-mcp', '        args:', '            - --ro', '# trailing comment'].join('\n')));

    writeFileSync(file, 'mcpServers: {}   # none yet\nlimits:\n  maxTurns: 5\n');
    expect((await cli(dir, ['mcp', 'add', 'db', '--', 'db-mcp'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('mcpServers:\n  db:\n    command: db-mcp\nlimits:\n  maxTurns: 5\n');
  });
});
