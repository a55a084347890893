// After a conversation rewind the terminal UI shows the rewound state (the built CLI in tmux, the
// fake LLM): the transcript is redrawn from the rewound history, the rewound prompt is back in the
// input for editing, and Enter sends it (edited) on top of the rewound conversation.
import { afterEach, describe, expect, it } from 'vitest';
import { gitProject, requestText, sharedFakeLlm } from '../e2e/support.js';
import { isolatedEnv } from '../support/project.js';
import { TmuxTerminal, tmuxAvailable } from '../ui/tmux.js';

const hasTmux = tmuxAvailable();
if (!hasTmux && !process.env.CI) console.log('skipping the rewind redraw tmux test: tmux is not installed');
const fake = sharedFakeLlm();
const terminals: TmuxTerminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

const SESSION = {
  turns: [
    { name: 'one', when: { userText: 'tell me about apples' }, reply: { text: 'Apples are red.' } },
    { name: 'two', when: { userText: 'tell me about pears' }, reply: { text: 'Pears are green.' } },
    { name: 'three', when: { userText: 'tell me about plums' }, reply: { text: 'Plums are purple.' } },
    { name: 'again', when: { userText: 'tell me about pears, briefly' }, reply: { text: 'Pears: green.' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

describe.skipIf(!hasTmux)('the terminal UI after a conversation rewind', () => {
  it('redraws the rewound conversation and puts the rewound prompt back in the input', async () => {
    fake.script(SESSION);
    const dir = gitProject({ 'notes.txt': 'x\n' });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
    const term = TmuxTerminal.start({ cwd: dir, env, width: 110, height: 40 });
    terminals.push(term);
    await term.waitFor('Ask anything');
    for (const [prompt, reply] of [['tell me about apples', 'Apples are red.'], ['tell me about pears', 'Pears are green.'], ['tell me about plums', 'Plums are purple.']]) {
      term.type(prompt!);
      term.keys('Enter');
      await term.waitFor(reply!);
      await term.waitFor('› Ask anything');
    }

    term.type('/rewind 2 conversation');
    term.keys('Enter');
    const screen = await term.waitFor('─ rewound: the conversation continues from here');
    // Redrawn from the rewound history: prompt 1 and its reply, nothing of prompts 2 and 3.
    expect(screen).toContain('› tell me about apples');
    expect(screen).toContain('Apples are red.');
    expect(screen).not.toContain('Pears are green.');
    expect(screen).not.toContain('Plums are purple.');
    expect(screen).not.toContain('tell me about plums');
    // The rewound prompt is in the input, the cursor at its end: typing edits it.
    expect(screen).toMatch(/rewound: the conversation continues from here[^\n]*\n[\s\S]*─{10,}\n› tell me about pears\s*\n/);
    expect(screen).toContain('Rewound conversation to before prompt 2');

    term.type(', briefly');
    term.keys('Enter');
    await term.waitFor('Pears: green.');
    const sent = requestText(fake.server.requests.find((q) => q.turn === 'again')!);
    expect(sent).toContain('tell me about apples');
    expect(sent).not.toContain('Pears are green.');
    expect(sent).not.toContain('plums');
  }, 240_000);
});
