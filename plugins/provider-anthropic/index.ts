import { definePlugin } from '../../core/index.js';
import { providerOptionsSchema, validateProviderOptions } from '../../core/kits/provider/index.js';
import { PLUGIN, createAnthropicProvider, type AnthropicOptions } from './provider.js';

/** Exported so the build precompiles its validator (config/precompile-schemas.mjs): no ajv compile at start. */
export const providerOptions = providerOptionsSchema({ tokenCount: { enum: ['estimate', 'api'] } });

/**
 * Anthropic's Messages API through `@anthropic-ai/sdk`: streaming, tool use, extended thinking,
 * prompt-cache breakpoints. Answers `provider.name: anthropic`. The SDK is imported on the first
 * request, so start-up never pays for it.
 */
export default definePlugin({
  name: PLUGIN,
  version: '1.0.0',
  apply(kernel, _options, { logger }) {
    kernel.hooks.provider.for('anthropic').tap(PLUGIN, (settings) =>
      createAnthropicProvider(settings, validateProviderOptions<AnthropicOptions>(settings, providerOptions, PLUGIN), logger),
    );
  },
});
