import { execFileSync } from 'node:child_process';
import { runCli, type CliResult } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';

export { startFakeLlm, type FakeLlm };

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
  return runCli(['-p', ...args, ...(provider === 'openai' ? ['--provider', 'openai'] : [])], { cwd: dir, env, input: options.input, timeoutMs: 60_000 });
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
