#!/usr/bin/env node
// The fake LLM server ships in the package (core/testing/fake-llm, exported by `assistant/testing`).
// This entry keeps `node test/fake-llm/server.js --fixture <file>` and the tests' import path
// working; it runs the compiled server, so build first (`npm run build`).
import { pathToFileURL } from 'node:url';
import { runFakeLlmCli } from '../../dist/core/testing/fake-llm/cli.js';

export { startFakeLlm } from '../../dist/core/testing/fake-llm/server.js';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const code = await runFakeLlmCli(process.argv.slice(2), 'node test/fake-llm/server.js');
  if (code !== undefined) process.exit(code);
}
