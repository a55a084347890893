import { createKernel } from '../core/kernel/kernel.js';
import type { ResolvedConfig } from '../core/types/config.js';
import { sourceOf } from './describe.js';

/** The provider a run would use, each value with where it came from (`assistant config show`). */
export interface EffectiveProvider {
  provider: string;
  providerSource: string;
  model?: string;
  modelSource: string;
  baseURL?: string;
  baseURLSource?: string;
  /** Why the provider could not be made (no key, an unknown name): the run would stop with this. */
  problem?: string;
}

/**
 * Asks the configured provider plugin, as a run would (no request is made): its default model when
 * the config names none, and its base URL with the setting that chose it (the config, an
 * environment variable such as ANTHROPIC_BASE_URL, or the default).
 */
export async function effectiveProvider(resolved: ResolvedConfig): Promise<EffectiveProvider> {
  const provider = resolved.values.provider?.name ?? '(none)';
  const configured = resolved.values.provider?.model;
  const out: EffectiveProvider = {
    provider,
    providerSource: sourceOf(resolved.sources, '/provider/name'),
    model: configured,
    modelSource: configured ? sourceOf(resolved.sources, '/provider/model') : `the default of the ${provider} provider`,
  };
  try {
    const kernel = await createKernel({ config: resolved, headless: true, logLevel: 'error', checkSelections: false });
    try {
      const made = kernel.provider();
      out.model = configured ?? made.defaultModel;
      if (made.endpoint) {
        out.baseURL = made.endpoint.url;
        out.baseURLSource = made.endpoint.source;
      }
    } finally {
      await kernel.shutdown('done').catch(() => undefined);
    }
  } catch (error) {
    out.problem = String((error as Error)?.message ?? error).split('\n')[0];
  }
  return out;
}
