// The fake LLM server as a command: `assistant-fake-llm --fixture <file>` (and node test/fake-llm/server.js).
import { parseArgs } from 'node:util';
import { readFixture, type Fixture } from './script.js';
import { startFakeLlm, type FakeLlm } from './server.js';

/**
 * Runs the server on its own until SIGINT/SIGTERM: `--fixture <file> [--port N] [--host H]`.
 * Prints the base URLs; returns the exit code for bad arguments without starting.
 */
export async function runFakeLlmCli(args: string[], usage = 'fake-llm'): Promise<number | undefined> {
  const usageLine = `usage: ${usage} --fixture <file.json> [--port N] [--host 127.0.0.1]\n`;
  const fail = (problem: string) => {
    process.stderr.write(`${usage}: ${problem}\n${usageLine}`);
    return 2;
  };
  let values: { fixture?: string; port: string; host: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { fixture: { type: 'string' }, port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(usageLine);
    return 0;
  }
  if (!values.fixture) return fail('--fixture is required');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
  let fixture: Fixture;
  try {
    fixture = readFixture(values.fixture);
  } catch (error) {
    return fail((error as NodeJS.ErrnoException).code === 'ENOENT' ? `no fixture file ${values.fixture}` : (error as Error).message);
  }
  let fake: FakeLlm;
  try {
    fake = await startFakeLlm({ fixture, port, host: values.host });
  } catch (error) {
    return fail(`cannot listen on ${values.host}:${port}: ${(error as Error).message}`);
  }
  process.stdout.write(`fake-llm listening on ${fake.url}\n  ANTHROPIC_BASE_URL=${fake.anthropicBaseURL}\n  OPENAI_BASE_URL=${fake.openaiBaseURL}\n  requests: GET ${fake.url}/_requests\n`);
  const stop = () => fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
