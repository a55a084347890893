import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load.js';
import { trustRoot } from '../../config/trust.js';
import { revokeTrust } from '../../core/kits/trust/trust-store.js';
import type { CommonFlags } from '../flags.js';

/** `assistant trust [--revoke] [path]`: trusts (or stops trusting) a project's widening settings, for headless runs. */
export function registerTrustCommand(program: Command): void {
  program
    .command('trust')
    .description("trust the project's settings that widen what assistant may do (as they are now); a later change asks again")
    .argument('[path]', 'the project (default: the working directory)')
    .option('--revoke', 'stop trusting the project')
    .action(async (path: string | undefined, _o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonFlags & { revoke?: boolean }>();
      const cwd = resolve(opts.cwd ?? process.cwd(), path ?? '.');
      const before = await loadConfig({ cwd, configFile: opts.config, enforceTrust: true });
      const root = before.trust!.root;
      if (opts.revoke) {
        revokeTrust(trustRoot(root));
        return void process.stdout.write(`no longer trusted: ${root}\n`);
      }
      await loadConfig({ cwd, configFile: opts.config, grantTrust: true });
      const what = before.trust!.ignored;
      process.stdout.write(what.length ? `trusted ${root}; now applied:\n${what.map((w) => `  ${w}\n`).join('')}` : `trusted ${root} (it has no settings that need trust yet)\n`);
    });
}
