import type { Command } from 'commander';
import { describeConfig, describeConfigJson } from '../../config/describe.js';
import { effectiveProvider } from '../../config/effective-provider.js';
import { writeStarterConfig } from '../../config/starter-config.js';
import { createKernel } from '../../core/kernel/kernel.js';
import { boot, loadConfigFor } from '../boot.js';
import type { CommonFlags } from '../flags.js';

type Opts = CommonFlags & { json?: boolean; force?: boolean; all?: boolean };
const optsOf = (cmd: Command) => cmd.optsWithGlobals<Opts>();

/** `assistant config show | validate | init`: they load the configuration themselves, so they work when a kernel cannot boot. */
export function registerConfigCommands(program: Command): void {
  const config = program.command('config').description('show, check or create configuration');
  config
    .command('show')
    .description('print the resolved configuration and the file each value came from')
    .option('--json', 'machine-readable output')
    .option('--all', 'list every built-in price too (folded into one line otherwise)')
    .action(async (_o: unknown, cmd: Command) => {
      const resolved = await loadConfigFor(optsOf(cmd));
      const effective = await effectiveProvider(resolved);
      process.stdout.write(optsOf(cmd).json ? describeConfigJson(resolved, effective) : describeConfig(resolved, { effective, all: optsOf(cmd).all }));
    });
  config
    .command('validate')
    .description('check the configuration and every plugin option; exit 0 when valid')
    .action(async (_o: unknown, cmd: Command) => {
      // boot() checks what the config selects by name (provider options, store, strategy) too.
      const kernel = await boot(optsOf(cmd), true);
      const files = kernel.resolvedConfig.files;
      process.stdout.write(`configuration is valid (${files.length ? files.join(', ') : 'built-in defaults only'}; ${kernel.plugins.length} plugins)\n`);
    });
  config
    .command('init')
    .description('write a commented starter .assistantrc in the current directory')
    .option('--force', 'overwrite an existing file')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = optsOf(cmd);
      const dir = opts.cwd ?? process.cwd();
      const file = writeStarterConfig(dir, opts.force);
      // The starter must itself be valid: check it the way a run would.
      await createKernel({ config: await loadConfigFor({ ...opts, cwd: dir }), headless: true, checkSelections: true });
      process.stdout.write(`wrote ${file}\n`);
    });
}
