#!/usr/bin/env node
// `assistant-fake-llm --fixture <file.json>`: the test kit's fake LLM server on its own, for
// end-to-end tests of plugins (point a provider's base URL at it). Format: docs/fake-llm.md.
import { runFakeLlmCli } from '../core/testing/fake-llm/cli.js';

const code = await runFakeLlmCli(process.argv.slice(2), 'assistant-fake-llm');
if (code !== undefined) process.exit(code);
