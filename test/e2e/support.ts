import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';

export { startFakeLlm, type FakeLlm };

/** One fake LLM server for a test file's tests, started before them and closed after. */
export interface SharedFakeLlm {
  /** The running server (available inside tests and hooks). */
  readonly server: FakeLlm;
  /** Swaps in `fixture` and clears the request log. */
  script(fixture: object): void;
}

/** Registers the set-up and tear-down of a fake LLM server shared by the file's tests. */
export function sharedFakeLlm(): SharedFakeLlm {
  let server: FakeLlm | undefined;
  beforeAll(async () => {
    server = await startFakeLlm({ fixture: { turns: [] } });
  });
  afterAll(() => server?.close());
  const running = () => {
    if (!server) throw new Error('the fake LLM server is only running inside tests');
    return server;
  };
  return {
    get server() {
      return running();
    },
    script(fixture) {
      running().setFixture(fixture);
      running().reset();
    },
  };
}

/** A temp git repository holding `files`, committed, as a user's project would be. */
export function gitProject(files: Record<string, string>): string {
  const dir = makeProject(files);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'start', '--allow-empty');
  return dir;
}

/** Runs the built CLI headless against the fake server (Anthropic wire format unless `provider` says otherwise). */
export function runHeadless(
  fake: FakeLlm,
  dir: string,
  args: string[],
  options: { provider?: 'anthropic' | 'openai'; env?: Record<string, string>; input?: string } = {},
): Promise<CliResult> {
  const provider = options.provider ?? 'anthropic';
  const env = isolatedEnv({
    ...(provider === 'anthropic' ? { ANTHROPIC_BASE_URL: fake.anthropicBaseURL } : { OPENAI_BASE_URL: fake.openaiBaseURL }),
    ...options.env,
  });
  return runCli(['-p', ...args, ...(provider === 'openai' ? ['--provider', 'openai'] : [])], { cwd: dir, env, input: options.input, timeoutMs: 100_000 });
}

/** Every text a request sent, flattened (system, messages, tool results), for "did the model see X" checks. */
export function requestText(request: { body: unknown }): string {
  return JSON.stringify(request.body);
}

/** The stream-json lines of a run. */
export function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, any>);
}
