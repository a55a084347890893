import { flagsLayer } from '../config/flags-layer.js';
import { loadConfig } from '../config/load.js';
import { trustWarning } from '../config/trust.js';
import { createKernel } from '../core/kernel/kernel.js';
import type { Kernel } from '../core/kernel/kernel-types.js';
import type { ResolvedConfig } from '../core/types/config.js';
import type { CommonFlags } from './flags.js';
import { askToTrust } from './trust-prompt.js';

/**
 * Loads the configuration for the flags' working directory. The project's widening settings wait
 * for trust: `ask` puts the question on the terminal, otherwise one warning line says what was ignored.
 */
export async function loadConfigFor(flags: CommonFlags, ask = false): Promise<ResolvedConfig> {
  const cwd = flags.cwd ?? process.cwd();
  const layer = flagsLayer(flags, cwd);
  const load = (grantTrust: boolean) => loadConfig({ cwd, configFile: flags.config, flags: layer, enforceTrust: true, grantTrust });
  let config = await load(Boolean(flags.trustProject));
  if (config.trust?.ignored.length && ask && (await askToTrust(config.trust))) config = await load(true);
  const warning = config.trust && trustWarning(config.trust);
  if (warning) process.stderr.write(`${warning}\n`);
  return config;
}

/**
 * Loads the configuration and applies every configured plugin (no `ready` yet: nothing is started).
 * `askTrust`: the terminal may be asked. `checkSelections`: a misspelt provider, store or strategy
 * stops the start; off for subcommands that may not need them (`replay` runs with no provider).
 */
export async function boot(flags: CommonFlags, headless: boolean, askTrust = false, checkSelections = true): Promise<Kernel> {
  const config = await loadConfigFor(flags, askTrust && !headless);
  return createKernel({
    config, headless,
    logLevel: flags.debug ? 'debug' : (process.env.ASSISTANT_LOG_LEVEL as 'info' | undefined) ?? 'warn',
    logFile: process.env.ASSISTANT_LOG_FILE,
    traceHooks: flags.debug,
    // A misspelt provider, store or strategy is a config error at start (exit 2), not a failure at first use.
    checkSelections,
  });
}
