import { readFileSync } from 'node:fs';
import {
  AssistantError,
  decidePermission,
  formatError,
  permissionRequestFor,
  compileSchema,
  describeSchemaErrors,
  type CliCommand,
  type Kernel,
  type PermissionDecision,
  type PermissionMode,
} from '../../core/index.js';

const MODES = new Set<PermissionMode>(['default', 'acceptEdits', 'plan', 'bypass']);

interface CheckOptions {
  tool?: string;
  input?: string;
  mode?: string;
  json?: boolean;
  headless?: boolean;
  batch?: string;
}

function usage(message: string): AssistantError {
  return new AssistantError('ASSISTANT_USAGE', message);
}

function modeOf(value: unknown, fallback: PermissionMode): PermissionMode {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !MODES.has(value as PermissionMode)) throw usage(`unknown permission mode ${JSON.stringify(value)}: use default, acceptEdits, plan or bypass`);
  return value as PermissionMode;
}

/** Judges one call exactly as the tool pipeline does: the tool's definition → input schema → permissionRequestFor → decidePermission. */
async function judge(kernel: Kernel, tool: unknown, input: unknown, mode: PermissionMode, headless: boolean, callId: string): Promise<PermissionDecision> {
  if (typeof tool !== 'string' || !tool) throw usage('a request needs "tool": the name of a tool');
  const definition = kernel.tools.get(tool);
  if (!definition) {
    const known = kernel.tools.list().map((t) => t.name);
    throw usage(`no tool named "${tool}" is registered${known.length ? ` (tools: ${known.join(', ')})` : ' (no tools are loaded)'}`);
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw usage('"input" must be a JSON object, e.g. {"command": "npm test"}');
  // The pipeline validates input before any policy sees it: input it would refuse for what it holds
  // (a wrong type, an unknown field) is judged refused here too. Missing fields are let through, so a
  // request can name only what the policy looks at ({"file_path": …} for an Edit).
  const checked = structuredClone(input) as Record<string, unknown>;
  const validate = compileSchema(definition.inputSchema);
  const errors = validate(checked) ? [] : (validate.errors ?? []).filter((e) => e.keyword !== 'required');
  const problems = describeSchemaErrors(errors, checked);
  if (problems.length) return { behavior: 'deny', layer: 'validate', reason: `invalid input for ${tool}, which the pipeline refuses before it runs: ${problems.join('; ')}` };
  const call = { type: 'tool_call' as const, id: callId, name: tool, input: checked };
  let request;
  try {
    request = permissionRequestFor(definition, call, { projectRoot: kernel.projectRoot, cwd: kernel.cwd, mode, headless });
  } catch (error) {
    // The tool's risk hints threw on this input: the pipeline could not judge it either.
    return { behavior: 'deny', layer: 'kernel', reason: `the tool could not describe this input: ${(error as Error)?.message ?? error}` };
  }
  return decidePermission(kernel.hooks, request);
}

function describe(tool: string, decision: PermissionDecision, headless: boolean): Record<string, unknown> {
  return {
    tool,
    behavior: decision.behavior,
    layer: decision.layer,
    reason: decision.reason,
    ...(decision.suggestedRule ? { suggestedRule: decision.suggestedRule } : {}),
    ...(decision.hint?.trim() ? { hint: decision.hint.trim() } : {}),
    ...(headless && decision.behavior === 'ask' ? { effective: 'deny' } : {}),
  };
}

async function readBatch(source: string): Promise<string> {
  if (source !== '-') return readFileSync(source, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `--batch`: one JSON request per line in, one JSON decision per line out, in order; bad lines get an error line. */
async function runBatch(kernel: Kernel, options: CheckOptions, mode: PermissionMode): Promise<number> {
  let text: string;
  try {
    text = await readBatch(options.batch!);
  } catch (error) {
    throw usage(`cannot read the batch file ${options.batch}: ${(error as Error).message}`);
  }
  const lines = text.split('\n');
  let failed = false;
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let result: Record<string, unknown>;
    try {
      let parsed: { tool?: unknown; input?: unknown; mode?: unknown };
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        throw usage(`not JSON: ${(error as Error).message}`);
      }
      const lineMode = modeOf(parsed.mode, mode);
      const decision = await judge(kernel, parsed.tool, parsed.input, lineMode, !!options.headless, `check-${i + 1}`);
      result = { line: i + 1, ...describe(String(parsed.tool), decision, !!options.headless) };
    } catch (error) {
      failed = true;
      result = { line: i + 1, error: formatError(error), code: (error as AssistantError).code ?? 'ASSISTANT_INTERNAL' };
    }
    out += JSON.stringify(result) + '\n';
    if (out.length > 64_000) {
      process.stdout.write(out);
      out = '';
    }
  }
  process.stdout.write(out);
  return failed ? 2 : 0;
}

/** `assistant permissions check`: what the policy decides for a call, without running anything. */
export function permissionsCommand(kernel: Kernel): CliCommand {
  return {
    name: 'permissions',
    description: 'inspect the permission policy',
    subcommands: [
      {
        name: 'check',
        description: 'print the decision, the deciding layer and the reason for a tool call, without running it',
        options: [
          { flags: '--tool <name>', description: 'the tool, e.g. Bash, Read, Edit' },
          { flags: '--input <json>', description: 'the tool input as JSON, e.g. \'{"command":"npm test"}\'' },
          { flags: '--mode <mode>', description: 'permission mode: default, acceptEdits, plan or bypass (default: the configured mode)' },
          { flags: '--headless', description: 'judge as in print mode, where "ask" means deny' },
          { flags: '--json', description: 'print the decision as JSON' },
          { flags: '--batch <file>', description: 'one JSON request per line ({"tool", "input", "mode"?}; - reads stdin); prints one JSON decision per line' },
        ],
        async action(_args, raw) {
          const options = raw as CheckOptions;
          await kernel.start();
          const mode = modeOf(options.mode, (kernel.config.permissions?.mode as PermissionMode | undefined) ?? 'default');
          if (options.batch) return runBatch(kernel, options, mode);
          if (!options.tool || options.input === undefined) throw usage('permissions check needs --tool and --input (or --batch FILE)');
          let input: unknown;
          try {
            input = JSON.parse(options.input);
          } catch (error) {
            throw usage(`--input is not JSON: ${(error as Error).message}`);
          }
          const decision = await judge(kernel, options.tool, input, mode, !!options.headless, 'check');
          if (options.json) process.stdout.write(JSON.stringify(describe(options.tool, decision, !!options.headless)) + '\n');
          else {
            const effective = options.headless && decision.behavior === 'ask' ? ' (headless: denied)' : '';
            process.stdout.write(`${decision.behavior}${effective}  [${decision.layer}]  ${decision.reason}\n`);
            if (decision.suggestedRule) process.stdout.write(`a "yes, for this session / always" answer would allow: ${decision.suggestedRule}\n`);
            if (decision.hint?.trim()) process.stdout.write(`to allow it: ${decision.hint.trim()}\n`);
          }
          return 0;
        },
      },
    ],
  };
}
