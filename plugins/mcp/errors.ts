import { defineErrorCodes } from '../../core/index.js';

/** The error codes of MCP servers: registered through the plugin's `errors`, documented in docs/errors.md. */
export const MCP_ERRORS = defineErrorCodes({
  ASSISTANT_MCP_CONFIG_INVALID: { exit: 2, text: 'An MCP server entry cannot be used: an invalid `.mcp.json` entry, or a `${VAR}` it uses is not set.' },
  ASSISTANT_MCP_CONNECT_FAILED: { exit: 1, text: 'An MCP server could not be started or reached, or failed its `initialize` handshake.' },
  ASSISTANT_MCP_CONNECT_TIMEOUT: { exit: 1, text: 'An MCP server did not finish starting (process, `initialize`, tool list) within its `startupTimeoutMs`.' },
  ASSISTANT_MCP_SERVER_CLOSED: { exit: 1, text: 'An MCP server exited or closed the connection; its tools are gone for the rest of the session.' },
  ASSISTANT_MCP_REQUEST_FAILED: { exit: 1, text: 'An MCP server refused or failed a request (unknown tool, invalid arguments, HTTP error).' },
  ASSISTANT_MCP_TOOL_ERROR: { exit: 1, text: 'An MCP tool ran and reported an error (`isError`); its message is the result.' },
  ASSISTANT_MCP_SERVER_EXISTS: { exit: 2, text: "`assistant mcp add`: the project's config already has a server of that name." },
  ASSISTANT_MCP_SERVER_NAME_INVALID: { exit: 2, text: 'An MCP server name has `__`, a `_` at either end, more than 40 characters or one outside `[A-Za-z0-9_-]`: it could pass for another server in tool names, so the server is not started.' },
  ASSISTANT_MCP_SERVER_UNKNOWN: { exit: 2, text: "`assistant mcp remove`: no server of that name in the project's config or `.mcp.json`." },
});
