import { definePlugin } from '../../core/index.js';
import { doctorCommand } from './doctor.js';
import { pluginsCommand } from './plugin-list.js';

/**
 * `assistant doctor` (what works on this machine and what to fix; plugins add lines with `addCheck`)
 * and `assistant plugins` (what is loaded, from where, and what each tapped). A configuration that
 * does not load at all is reported by the CLI itself, as for any subcommand.
 */
export default definePlugin({
  name: 'diagnostics',
  version: '1.0.0',
  apply(kernel) {
    kernel.hooks.commands.tap('diagnostics', (registry) => {
      registry.addCli(doctorCommand(kernel));
      registry.addCli(pluginsCommand(kernel));
    });
  },
});
