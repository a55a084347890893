/** How the `sessions` subcommands render a session: imported when `show`, `export` or `audit` runs (sessions-cli.ts). */
export { sessionMarkdown } from './markdown.js';
export { auditLine, savedMetrics, showText } from './show.js';
