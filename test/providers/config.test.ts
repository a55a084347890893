// Provider options are validated when the provider is created; missing keys stop the CLI at once.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { providerFrom } from './helpers.js';

async function creationError(provider: Record<string, unknown>): Promise<{ code: string; message: string; plugin?: string }> {
  return providerFrom(provider).then(
    () => {
      throw new Error('the provider was created');
    },
    (error: { code: string; message: string; plugin?: string }) => error,
  );
}

describe('provider options', () => {
  it.each(['anthropic', 'openai'])('%s reports bad values with their JSON path', async (name) => {
    const error = await creationError({ name, baseURL: 'http://127.0.0.1:1', retries: { attempts: 'three', jitter: 2 }, timeoutMs: 0, retrys: 1 });
    expect(error.code).toBe('ASSISTANT_PROVIDER_OPTIONS_INVALID');
    expect(error.plugin).toBe(`provider-${name}`);
    expect(error.message).toContain('/provider/retries/attempts: must be integer (got "three")');
    expect(error.message).toContain('/provider/retries/jitter: must be <= 1');
    expect(error.message).toContain('/provider/timeoutMs: must be >= 1');
    expect(error.message).toContain('/provider/retrys: is not a known key');
  });

  it('refuses a base URL that is not http(s)', async () => {
    const error = await creationError({ name: 'openai', baseURL: 'localhost:11434' });
    expect(error.message).toContain('/provider/baseURL: must match pattern');
  });

  it('keeps one provider\'s own options away from the other', async () => {
    const error = await creationError({ name: 'anthropic', baseURL: 'http://127.0.0.1:1', reasoningEffort: 'low' });
    expect(error.message).toContain('/provider/reasoningEffort: is not a known key');
  });
});

describe('the CLI without a key', () => {
  it.each([
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['openai', 'OPENAI_API_KEY'],
  ])('assistant -p --provider %s stops at once, naming %s and the keyless local route', async (name, keyEnv) => {
    const result = await runCli(['-p', 'hello', '--provider', name], { cwd: makeProject(), env: isolatedEnv() });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('ASSISTANT_PROVIDER_NOT_CONFIGURED');
    expect(result.stderr).toContain(keyEnv);
    expect(result.stderr).toContain('provider.baseURL');
    expect(result.stderr).toContain('Ollama');
  });
});
