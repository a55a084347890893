/** The MCP client's implementation, which the plugin's index imports on first use (lazyImport). */
export { McpManager } from './manager.js';
export { attachResources } from './mentions.js';
export { formatRows, serverRow } from './status.js';
