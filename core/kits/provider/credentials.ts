import { ProviderError } from '../../kernel/errors.js';

/** Where a provider's key and endpoint come from. */
export interface CredentialSources {
  /** The provider's name, for the error. */
  provider: string;
  /** The environment variable the key is read from (`ANTHROPIC_API_KEY`, or `provider.apiKeyEnv`). */
  keyEnv: string;
  /** The environment variable that may hold the base URL (`ANTHROPIC_BASE_URL`). */
  baseURLEnv: string;
  /** `provider.baseURL` from the config. */
  configBaseURL?: string;
  /** The environment to read. */
  env: NodeJS.ProcessEnv;
  /** The plugin asking, named on the error. */
  plugin?: string;
}

/** The key and endpoint a provider will use. */
export interface Credentials {
  /** Absent when a base URL was given without a key (local servers need none). */
  apiKey?: string;
  /** Absent for the provider's own default endpoint. */
  baseURL?: string;
}

/**
 * Reads the key and base URL (config beats environment). With neither, fails at once with
 * `ASSISTANT_PROVIDER_NOT_CONFIGURED` naming the variable, the config keys, and the keyless
 * local-server route, so nobody waits on a request that cannot succeed.
 */
export function resolveCredentials(sources: CredentialSources): Credentials {
  const apiKey = sources.env[sources.keyEnv]?.trim() || undefined;
  const baseURL = sources.configBaseURL || sources.env[sources.baseURLEnv]?.trim() || undefined;
  if (!apiKey && !baseURL)
    throw new ProviderError(
      'ASSISTANT_PROVIDER_NOT_CONFIGURED',
      `no API key for provider "${sources.provider}": set the environment variable ${sources.keyEnv} ` +
        `(or name another one in provider.apiKeyEnv), or point provider.baseURL (or ${sources.baseURLEnv}) at a compatible server. ` +
        `A local Ollama or LM Studio server needs no key: provider.name "openai" with provider.baseURL "http://127.0.0.1:11434/v1" (Ollama) or "http://127.0.0.1:1234/v1" (LM Studio)`,
      { plugin: sources.plugin },
    );
  return { apiKey, baseURL };
}
