import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { boot, type CommonFlags } from '../boot.js';

const builtinDir = fileURLToPath(new URL('../../plugins/', import.meta.url));

/** `assistant plugins`: each loaded plugin, its source, version, the hooks it tapped and the tools it registered. */
export function registerPluginsCommand(program: Command, _exit: { code: number }): void {
  program
    .command('plugins')
    .description('list loaded plugins: name, version, source and the hooks each tapped')
    .option('--json', 'machine-readable output')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<CommonFlags & { json?: boolean }>();
      const kernel = await boot(opts, true);
      // Commands are contributed through a hook too; call it so those taps show.
      kernel.hooks.commands.call(kernel.commands);
      const rows = kernel.plugins.map((p) => ({
        name: p.name,
        version: p.version ?? '',
        source: p.source.startsWith(builtinDir) ? `built-in (${relative(builtinDir, p.source)})` : p.source,
        listedIn: p.listedIn,
        hooks: p.hooks,
        tools: kernel.tools
          .list()
          .filter((tool) => tool.plugin === p.name)
          .map((tool) => tool.name),
      }));
      if (opts.json) {
        process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return;
      }
      if (!rows.length) {
        process.stdout.write('no plugins loaded\n');
        return;
      }
      for (const row of rows) {
        process.stdout.write(`${row.name}${row.version ? '@' + row.version : ''}\n`);
        process.stdout.write(`  source: ${row.source}\n`);
        if (row.listedIn !== 'defaults') process.stdout.write(`  listed in: ${row.listedIn}\n`);
        process.stdout.write(`  hooks: ${row.hooks.length ? row.hooks.join(', ') : '(none)'}\n`);
        if (row.tools.length) process.stdout.write(`  tools: ${row.tools.join(', ')}\n`);
      }
    });
}
