// --system-prompt and --append-system-prompt (issue #19): the first replaces only the built-in
// instructions (the environment, the project map, memory files and the tools stay), the second sets
// systemPrompt.append; `@file` reads a file. Checked on what the model was actually sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv } from '../support/project.js';
import { gitProject, runHeadless, sharedFakeLlm } from './support.js';

const fake = sharedFakeLlm();
const BUILT_IN = 'You are assistant, a coding agent';

/** The system prompt and the tool names of the one request a run made. */
function sent(): { system: string; tools: string[] } {
  expect(fake.server.requests).toHaveLength(1);
  const body = fake.server.requests[0]!.body as { system?: Array<{ text: string }> | string; tools?: Array<{ name: string }> };
  const system = typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n');
  return { system, tools: (body.tools ?? []).map((t) => t.name) };
}

const project = () => gitProject({ 'AGENTS.md': 'Run the tests with make check.\n', 'src/main.c': 'int main(void) { return 0; }\n' });

describe('--system-prompt', () => {
  it('replaces the built-in instructions and keeps the environment, project map, memory and tools', async () => {
    fake.script({ turns: [{ reply: { text: 'Arr.' } }] });
    const dir = project();
    const r = await runHeadless(fake.server, dir, ['--system-prompt', 'You are a pirate who reviews C code.', 'hello']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { system, tools } = sent();
    expect(system).toContain('You are a pirate who reviews C code.');
    expect(system).not.toContain(BUILT_IN);
    expect(system).toContain(`Project root: ${dir}`);
    expect(system).toContain('<project-map>');
    expect(system).toContain('main.c');
    expect(system).toContain('Run the tests with make check.');
    expect(tools).toEqual(expect.arrayContaining(['Read', 'Edit', 'Bash']));
  });

  it('reads @file relative to the working directory, and refuses a missing one with a usage error', async () => {
    fake.script({ turns: [{ reply: { text: 'ok' } }] });
    const dir = project();
    writeFileSync(join(dir, 'persona.md'), '\nYou answer in haiku only.\n');
    const r = await runHeadless(fake.server, dir, ['--system-prompt', '@persona.md', 'hello']);
    expect(r.code).toBe(0);
    const { system } = sent();
    expect(system).toContain('You answer in haiku only.');
    expect(system).not.toContain(BUILT_IN);

    fake.script({ turns: [{ reply: { text: 'ok' } }] });
    const missing = await runHeadless(fake.server, dir, ['--system-prompt', '@nope.md', 'hello']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`ASSISTANT_USAGE: --system-prompt @nope.md: cannot read ${join(dir, 'nope.md')} (ENOENT)`);
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe('--append-system-prompt', () => {
  it('appends to the built-in instructions (systemPrompt.append), over the config file’s value', async () => {
    fake.script({ turns: [{ reply: { text: 'ok' } }] });
    const dir = project();
    writeFileSync(join(dir, '.assistantrc'), JSON.stringify({ systemPrompt: { append: 'FROM THE FILE' } }));
    const r = await runHeadless(fake.server, dir, ['--append-system-prompt', 'Always name the file you changed.', 'hello']);
    expect(r.code).toBe(0);
    const { system } = sent();
    expect(system).toContain(BUILT_IN);
    expect(system).toContain('Always name the file you changed.');
    expect(system).not.toContain('FROM THE FILE');
    expect(system.indexOf('Always name the file you changed.')).toBeGreaterThan(system.indexOf(BUILT_IN));

    const shown = await runCli(['config', 'show', '--append-system-prompt', 'Be brief.', '--system-prompt', 'Custom.'], { cwd: dir, env: isolatedEnv() });
    expect(shown.stdout).toContain('systemPrompt.append = "Be brief."    # flags');
    expect(shown.stdout).toContain('systemPrompt.instructions = "Custom."    # flags');
  });
});
