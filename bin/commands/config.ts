import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/kernel/errors.js';
import { createKernel } from '../../core/kernel/kernel.js';
import { boot, loadConfigFor, type CommonFlags } from '../boot.js';
import { STARTER_CONFIG } from './starter-config.js';

function flatten(value: unknown, pointer: string, out: Array<[string, unknown]>): void {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) flatten(v, `${pointer}/${k}`, out);
  } else out.push([pointer, value]);
}

function sourceOf(sources: Record<string, string>, pointer: string): string {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (sources[p]) return sources[p]!;
    if (!p) return 'defaults';
  }
}

/** `assistant config show | validate | init`. */
export function registerConfigCommands(program: Command, exit: { code: number }): void {
  const config = program.command('config').description('show, check or create configuration');

  config
    .command('show')
    .description('print the resolved configuration and the file each value came from')
    .option('--json', 'machine-readable output')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonFlags & { json?: boolean }>();
      const resolved = await loadConfigFor(opts);
      if (opts.json) {
        process.stdout.write(JSON.stringify({ values: resolved.values, sources: resolved.sources, files: resolved.files, projectRoot: resolved.projectRoot, plugins: resolved.plugins, disabled: resolved.disabled }, null, 2) + '\n');
        return;
      }
      const rows: Array<[string, unknown]> = [];
      const { plugins: _plugins, ...values } = resolved.values;
      flatten(values, '', rows);
      process.stdout.write(`project root: ${resolved.projectRoot}\n`);
      process.stdout.write(`files (lowest first): ${resolved.files.length ? resolved.files.join(', ') : '(none: built-in defaults only)'}\n\n`);
      for (const [pointer, value] of rows)
        process.stdout.write(`${pointer.slice(1).replace(/\//g, '.')} = ${JSON.stringify(value)}    # ${sourceOf(resolved.sources, pointer)}\n`);
      process.stdout.write('\nplugins:\n');
      for (const p of resolved.plugins)
        process.stdout.write(`  ${p.spec}${Object.keys(p.options).length ? ' ' + JSON.stringify(p.options) : ''}    # ${p.source}\n`);
      for (const d of resolved.disabled) process.stdout.write(`  ${d} (disabled)\n`);
    });

  config
    .command('validate')
    .description('check the configuration and every plugin option; exit 0 when valid')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonFlags>();
      // boot() checks what the config selects by name (provider options, store, strategy) too.
      const kernel = await boot(opts, true);
      const files = kernel.resolvedConfig.files;
      process.stdout.write(`configuration is valid (${files.length ? files.join(', ') : 'built-in defaults only'}; ${kernel.plugins.length} plugins)\n`);
    });

  config
    .command('init')
    .description('write a commented starter .assistantrc in the current directory')
    .option('--force', 'overwrite an existing file')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonFlags & { force?: boolean }>();
      const dir = resolve(opts.cwd ?? process.cwd());
      const file = join(dir, '.assistantrc');
      if (existsSync(file) && !opts.force)
        throw new ConfigError('ASSISTANT_CONFIG_WRITE_FAILED', `${file} already exists; pass --force to overwrite it`, { file });
      try {
        writeFileSync(file, STARTER_CONFIG, { flag: 'w' });
      } catch (cause) {
        throw new ConfigError('ASSISTANT_CONFIG_WRITE_FAILED', `cannot write ${file}: ${(cause as Error).message}`, { file, cause });
      }
      // The starter must itself be valid: check it the way a run would.
      await createKernel({ config: await loadConfigFor({ ...opts, cwd: dir }), headless: true, checkSelections: true });
      process.stdout.write(`wrote ${file}\n`);
      exit.code = 0;
    });
}
