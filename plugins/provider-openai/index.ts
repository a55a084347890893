import { definePlugin } from '../../core/index.js';
import { providerOptionsSchema, validateProviderOptions } from '../../core/kits/provider/index.js';
import { PLUGIN, createOpenAIProvider, type OpenAIOptions } from './provider.js';

/** Exported so the build precompiles its validator (config/precompile-schemas.mjs): no ajv compile at start. */
export const providerOptions = providerOptionsSchema({
  reasoningEffort: { enum: ['minimal', 'low', 'medium', 'high'] },
  maxTokensField: { enum: ['max_completion_tokens', 'max_tokens'] },
});

/**
 * OpenAI Chat Completions through the `openai` SDK, and any OpenAI-compatible server (Ollama,
 * LM Studio, vLLM, llama.cpp) through `provider.baseURL`, with no key needed for those. Answers
 * `provider.name: openai`. The SDK is imported on the first request.
 */
export default definePlugin({
  name: PLUGIN,
  version: '1.0.0',
  apply(kernel, _options, { logger }) {
    kernel.hooks.provider.for('openai').tap(PLUGIN, (settings) =>
      createOpenAIProvider(settings, validateProviderOptions<OpenAIOptions>(settings, providerOptions, PLUGIN), logger),
    );
  },
});
