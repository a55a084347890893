// Shell hooks end to end: the built CLI, the fake LLM server, hook scripts in a temp git project.
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitProject, jsonLines, requestText, runHeadless, sharedFakeLlm } from '../e2e/support.js';

const llm = sharedFakeLlm();
const script = (fixture: object) => llm.script(fixture);

/** A formatter: tabs become two spaces, trailing blanks go; says what it did. */
const FORMAT = `import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
const event = JSON.parse(readFileSync(0, 'utf8'));
const file = resolve(event.project_root, event.tool_input.file_path);
const before = readFileSync(file, 'utf8');
const after = before.replace(/\\t/g, '  ').replace(/[ ]+$/gm, '');
if (after !== before) {
  writeFileSync(file, after);
  console.log(JSON.stringify({ additionalContext: 'formatted ' + event.tool_input.file_path }));
}
`;

/** A guard: this project uses pnpm, so Bash commands that run npm are blocked with a reason. */
const NO_NPM = `#!/bin/sh
node -e '
const event = JSON.parse(require("fs").readFileSync(0, "utf8"));
if (/(^|[^p])npm /.test(event.tool_input.command)) {
  console.error("this repository uses pnpm; run the same with pnpm instead of npm");
  process.exit(2);
}'
`;

describe('assistant -p with shell hooks', () => {
  it('runs a PostToolUse formatter after every Write and Edit; the model reads what it did, and must re-read before editing again', async () => {
    const file = 'src/app.js';
    script({
      turns: [
        { name: 'write', when: { userText: 'add the app' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: file, content: 'export function main() {\n\treturn 1;   \n}\n' } }] } },
        { name: 'edit', when: { toolResultFor: 'w1', toolResultContains: 'formatted src/app.js' }, reply: { toolCalls: [{ id: 'e1', name: 'Edit', input: { file_path: file, old_string: 'return 1;', new_string: 'return 2;\t' } }] } },
        { name: 're-read', when: { toolResultFor: 'e1', toolResultContains: 'has changed since you last read it' }, reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: file } }] } },
        { name: 'edit again', when: { toolResultFor: 'r1' }, reply: { toolCalls: [{ id: 'e2', name: 'Edit', input: { file_path: file, old_string: 'return 1;', new_string: 'return 2;\t' } }] } },
        { name: 'done', when: { toolResultFor: 'e2', toolResultContains: 'formatted src/app.js' }, reply: { text: 'main returns 2 (the formatter tidied it).' } },
      ],
      fallback: { text: 'UNEXPECTED' },
    });
    const dir = gitProject({
      '.hooks/format.mjs': FORMAT,
      '.assistantrc': [
        'permissions:',
        '  mode: acceptEdits',
        'hooks:',
        '  PostToolUse:',
        '    - matcher: "Edit|Write"',
        '      hooks:',
        '        - type: command',
        '          command: node .hooks/format.mjs',
        '          timeout: 30',
        '',
      ].join('\n'),
    });
    const r = await runHeadless(llm.server, dir, ['--trust-project', 'add the app']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('main returns 2 (the formatter tidied it).\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, file), 'utf8')).toBe('export function main() {\n  return 2;\n}\n');
    expect(llm.server.requests.map((q) => q.turn)).toEqual(['write', 'edit', 're-read', 'edit again', 'done']);
  });

  it('blocks a PreToolUse call even in bypass mode; the model reads the reason and works around it', async () => {
    script({
      turns: [
        { name: 'npm', when: { userText: 'install' }, reply: { toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'touch npm-ran && npm install' } }] } },
        { name: 'pnpm', when: { toolResultFor: 'b1', toolResultContains: 'uses pnpm' }, reply: { text: 'npm is blocked here; using pnpm.', toolCalls: [{ id: 'b2', name: 'Bash', input: { command: 'touch pnpm-ran' } }] } },
        { name: 'done', when: { toolResultFor: 'b2' }, reply: { text: 'Installed with pnpm.' } },
      ],
      fallback: { text: 'UNEXPECTED' },
    });
    const dir = gitProject({
      '.hooks/no-npm.sh': NO_NPM,
      '.assistantrc': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './.hooks/no-npm.sh' }] }] } }),
    });
    chmodSync(join(dir, '.hooks/no-npm.sh'), 0o755);
    const r = await runHeadless(llm.server, dir, ['--trust-project', 'install the dependencies', '--permission-mode', 'bypass', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'npm-ran'))).toBe(false);
    expect(existsSync(join(dir, 'pnpm-ran'))).toBe(true);
    expect(requestText(llm.server.requests[1]!)).toContain('Bash was refused before it ran: blocked by the PreToolUse hook `./.hooks/no-npm.sh`: this repository uses pnpm');
    const lines = jsonLines(r.stdout);
    expect(lines.find((l) => l.type === 'tool_result' && l.id === 'b1')).toMatchObject({ is_error: true });
    expect(lines.at(-1)).toMatchObject({ type: 'result', reason: 'completed', text: 'Installed with pnpm.' });
  });

  it('shows a failing hook on stderr, naming the event and the command, and finishes the run', async () => {
    script({ turns: [{ name: 'answer', reply: { text: 'Hello.' } }], fallback: { text: 'UNEXPECTED' } });
    const dir = gitProject({ '.assistantrc': JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "ticket lookup failed" >&2; exit 3' }] }] } }) });
    const r = await runHeadless(llm.server, dir, ['--trust-project', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Hello.\n');
    expect(r.stderr).toBe('warn: UserPromptSubmit hook `echo "ticket lookup failed" >&2; exit 3` exited with status 3: ticket lookup failed\n');
  });

  it('drops a prompt a UserPromptSubmit hook blocks: nothing is sent, exit status 1, the reason on stderr', async () => {
    script({ turns: [], fallback: { text: 'UNEXPECTED' } });
    const guard = 'grep -qi "api key" && { echo "no keys in prompts" >&2; exit 2; } || true';
    const dir = gitProject({ '.assistantrc': JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: guard }] }] } }) });
    const r = await runHeadless(llm.server, dir, ['--trust-project', 'my API key is sk-123, use it']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`ASSISTANT_HOOK_BLOCKED: the prompt was blocked by the UserPromptSubmit hook \`${guard}\`: no keys in prompts\n`);
    expect(llm.server.requests).toHaveLength(0);
  });
});
