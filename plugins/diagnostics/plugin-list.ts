import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliCommand, Kernel } from '../../core/index.js';

const builtinDir = fileURLToPath(new URL('../', import.meta.url));

/** `assistant plugins`: each loaded plugin, its source, version, the hooks it tapped and the tools it registered. */
export function pluginsCommand(kernel: Kernel): CliCommand {
  return {
    name: 'plugins',
    description: 'list loaded plugins: name, version, source and the hooks each tapped',
    options: [{ flags: '--json', description: 'machine-readable output' }],
    action(_args, opts) {
      // A configuration a run would refuse is refused here too (exit 2), as `config validate` does.
      const problem = kernel.selectionProblem();
      if (problem) throw problem;
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
      if (opts.json) return void process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      if (!rows.length) return void process.stdout.write('no plugins loaded\n');
      for (const row of rows) {
        process.stdout.write(`${row.name}${row.version ? '@' + row.version : ''}\n`);
        process.stdout.write(`  source: ${row.source}\n`);
        if (row.listedIn !== 'defaults') process.stdout.write(`  listed in: ${row.listedIn}\n`);
        process.stdout.write(`  hooks: ${row.hooks.length ? row.hooks.join(', ') : '(none)'}\n`);
        if (row.tools.length) process.stdout.write(`  tools: ${row.tools.join(', ')}\n`);
      }
    },
  };
}
