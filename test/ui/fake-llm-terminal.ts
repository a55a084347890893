import { afterAll, afterEach, beforeAll } from 'vitest';
import { gitProject, startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { isolatedEnv } from '../support/project.js';
import { TmuxTerminal } from './tmux.js';

/**
 * The built CLI in tmux talking to one fake LLM server shared by a test file: the server starts
 * before the file's tests and closes after; each terminal closes after its test.
 */
export function fakeLlmTerminals() {
  let fake: FakeLlm | undefined;
  const terminals: TmuxTerminal[] = [];
  beforeAll(async () => {
    fake = await startFakeLlm({ fixture: { turns: [] } });
  });
  afterEach(() => terminals.splice(0).forEach((t) => t.close()));
  afterAll(() => fake?.close());
  const server = () => {
    if (!fake) throw new Error('the fake LLM server only runs inside tests');
    return fake;
  };
  return {
    get fake(): FakeLlm {
      return server();
    },
    /** Scripts the server, clears its log, and makes a git project of `files` with an env pointing at the server. */
    project(fixture: object, files: Record<string, string>, options: { color?: boolean } = {}) {
      server().setFixture(fixture);
      server().reset();
      const env = isolatedEnv({ ANTHROPIC_BASE_URL: server().anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
      if (options.color) delete env.NO_COLOR;
      return { dir: gitProject(files), env };
    },
    start(options: Parameters<typeof TmuxTerminal.start>[0]): TmuxTerminal {
      const term = TmuxTerminal.start(options);
      terminals.push(term);
      return term;
    },
    /** Requests no scripted turn answered (the fallback, or errors). */
    unexpected: () => server().requests.filter((r) => r.turn === undefined || r.status !== 200).map((r) => r.turn ?? r.status),
  };
}
