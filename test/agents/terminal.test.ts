// Sub-agents in the interactive UI: the built CLI in tmux against the fake LLM server. Their calls
// show nested under the Task call that started them, with a final status; an interrupt stops them.
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, makeProject } from '../support/project.js';
import { TmuxTerminal, tmuxAvailable } from '../ui/tmux.js';
import { useFakeLlm } from './support.js';
import { toolLine } from '../support/tool-line.js';

const llm = useFakeLlm();
const hasTmux = tmuxAvailable();
const terminals: TmuxTerminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

const review = (file: string, report: string) => [
  { name: `${file}: read`, when: { userText: `Review ${file}` }, barrier: { name: 'both', parties: 2 }, reply: { toolCalls: [{ id: `read_${file}`, name: 'Read', input: { file_path: file } }] } },
  { name: `${file}: report`, when: { toolResultFor: `read_${file}` }, reply: { text: report } },
];
const task = (id: string, description: string, prompt: string) => ({ id, name: 'Task', input: { description, prompt } });

describe.skipIf(!hasTmux)('sub-agents in the terminal UI', () => {
  it('nests each sub-agent’s calls under its Task call with a final status, and stops them on Esc', async () => {
    llm.script({
      turns: [
        { name: 'main: delegate', when: { userText: 'review both modules' }, reply: { toolCalls: [task('t_a', 'review a.js', 'Review a.js'), task('t_b', 'review b.js', 'Review b.js')] } },
        ...review('a.js', 'a.js divides by zero.'),
        ...review('b.js', 'b.js is fine.'),
        { name: 'main: answer', when: { toolResultFor: 't_a' }, reply: { text: 'One problem, in a.js.' } },
        { name: 'main: slow', when: { userText: 'start a slow review' }, reply: { toolCalls: [task('t_slow', 'slow review', 'Review everything slowly')] } },
        { name: 'slow', when: { userText: 'Review everything slowly' }, faults: [{ type: 'stall_after_headers', afterEvents: 1 }], reply: { text: 'never' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const dir = makeProject({
      '.assistantrc': JSON.stringify({ provider: { name: 'anthropic', model: 'claude-sonnet-4-6', baseURL: llm.fake.anthropicBaseURL } }),
      'a.js': 'export function f(n) {\n  return 1 / n;\n}\n',
      'b.js': 'export const b = 2;\n',
    });
    // The project's config points the provider at the fake server: the user trusts it.
    const term = TmuxTerminal.start({ cwd: dir, env: isolatedEnv(), width: 80, args: ['--trust-project'] });
    terminals.push(term);
    await term.waitFor('default mode (shift+tab)');

    term.type('review both modules');
    term.keys('Enter');
    await term.waitFor('One problem, in a.js.');
    const history = term.history();
    const block = (file: string) => {
      const lines = history.split('\n');
      const at = lines.findIndex((l) => l.startsWith(`● Task general: review ${file}`));
      return lines.slice(at, at + 3).map((l) => l.trimEnd());
    };
    for (const file of ['a.js', 'b.js']) {
      const [head, call, status] = block(file);
      expect(head).toMatch(new RegExp(`^● Task general: review ${file.replace('.', '\\.')} \\(1 tool use · [\\d.]+k? tokens( · [\\d.]+s)?\\)$`));
      expect(call).toMatch(toolLine(`  ● Read ${file} (${file === 'a.js' ? '3 lines' : '1 line'})`));
      expect(status).toBe('  ⎿ Done (2 turns)');
    }

    term.type('start a slow review');
    term.keys('Enter');
    // While it runs, the live area says what the sub-agent is doing.
    const live = await term.waitFor(/⎿ Starting… · 0 tool uses/);
    expect(live).toMatch(/Task general: slow review/);
    term.keys('Escape');
    const after = await term.waitFor('⎿ Interrupted');
    expect(after).toMatch(/● Task general: slow review \(0 tool uses · 0 tokens[^)]*\)\n {2}⎿ Interrupted/);
  });
});
