import { addUsage, emptyUsage, type PermissionMode, type SlashCommandContext, type Usage } from '../../../core/index.js';
import { shortCount } from '../transcript.js';
import { modeLabel } from '../render/status.js';
import { truncate, visibleWidth, wrapLine } from '../terminal/width.js';
import { BUILTIN_COMMANDS, type UiHost } from './host.js';

type Run = (host: UiHost, args: string, context: SlashCommandContext) => Promise<string | void> | string | void;

const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
const padLeft = (text: string, width: number) => ' '.repeat(Math.max(0, width - visibleWidth(text))) + text;

const KEYS: Array<[string, string]> = [
  ['Enter', 'send (while the agent works: queue a steering message)'],
  ['Ctrl+J, Alt+Enter, \\+Enter', 'new line (pasted text keeps its newlines)'],
  ['Up / Down', 'move in the input, then walk prompt history'],
  ['Tab', 'complete /commands and @files'],
  ['Shift+Tab', 'cycle the permission mode'],
  ['Esc or Ctrl+C', 'interrupt the agent (twice Ctrl+C on an empty prompt: exit)'],
  ['Ctrl+O', 'details of the latest tool call'],
  ['Ctrl+T', 'show or fold thinking'],
  ['Ctrl+L', 'clear the screen'],
  ['Ctrl+D', 'exit (on an empty prompt)'],
  ['@path', 'attach a file to the prompt'],
  ['!command', 'run a shell command (same permissions and sandbox as the Bash tool)'],
  ['#note', 'add a line to a memory file'],
];

/**
 * Two aligned columns; an entry wider than its column gets a line of its own and its text goes
 * under the column, so no name runs into its description.
 */
function columns(rows: Array<[string, string]>, style: UiHost['style'], width: number): string[] {
  const widest = Math.max(0, ...rows.map(([name]) => visibleWidth(name)));
  const column = Math.min(widest, Math.max(12, Math.floor(width / 3))) + 2;
  const indent = ' '.repeat(column + 2);
  return rows.flatMap(([name, text]) =>
    visibleWidth(name) + 2 > column
      ? [`  ${style.cyan(name)}`, ...wrapLine(indent + text, width, indent)]
      : wrapLine(`  ${style.cyan(pad(name, column))}${text}`, width, indent),
  );
}

const help: Run = (host) => {
  const { style, kernel, width } = host;
  const commands = kernel.commands.listSlash().map((c): [string, string] => [`/${c.name}${c.usage ? ' ' + c.usage : ''}`, c.description]);
  return [style.bold('Commands'), ...columns(commands, style, width), '', style.bold('Keys'), ...columns(KEYS, style, width)].join('\n');
};

const cost: Run = (host) => {
  const { style, runner } = host;
  const rows = [...host.usageByModel.entries()];
  const seen = rows.reduce((sum, [, u]) => addUsage(sum, u), emptyUsage());
  const session = runner.session.usage;
  const earlier: Usage = {
    inputTokens: Math.max(0, session.inputTokens - seen.inputTokens),
    outputTokens: Math.max(0, session.outputTokens - seen.outputTokens),
    cacheReadTokens: Math.max(0, session.cacheReadTokens - seen.cacheReadTokens),
    cacheWriteTokens: Math.max(0, session.cacheWriteTokens - seen.cacheWriteTokens),
  };
  if (Object.values(earlier).some((n) => n > 0)) rows.push(['(earlier in this session)', earlier]);
  const header = ['model', 'input', 'output', 'cache read', 'cache write', 'cost'];
  const table = rows.map(([model, u]) => [model, shortCount(u.inputTokens), shortCount(u.outputTokens), shortCount(u.cacheReadTokens), shortCount(u.cacheWriteTokens), 'n/a']);
  if (rows.length > 1) {
    const t = rows.reduce((sum, [, u]) => addUsage(sum, u), emptyUsage());
    table.push(['total', shortCount(t.inputTokens), shortCount(t.outputTokens), shortCount(t.cacheReadTokens), shortCount(t.cacheWriteTokens), 'n/a']);
  }
  if (!table.length) return style.gray('No tokens used yet in this session.');
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => visibleWidth(r[i]!))));
  widths[0] = Math.min(widths[0]!, Math.max(10, host.width - widths.slice(1).reduce((a, b) => a + b + 2, 0) - 2));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? pad(truncate(cell, widths[0]!), widths[0]!) : padLeft(cell, widths[i]!))).join('  ');
  return [
    style.bold(`Session ${runner.session.info.id.slice(0, 8)}`),
    style.gray(line(header)),
    ...table.map((r, i) => (i === table.length - 1 && rows.length > 1 ? style.bold(line(r)) : line(r))),
    style.gray('cost: no prices are known to the UI; a pricing plugin contributes a /cost that shows them'),
  ].join('\n');
};

const model: Run = (host, args) => {
  const name = args.trim();
  const provider = host.kernel.config.provider?.name ?? 'unknown';
  if (!name) return `Model: ${host.model} (provider ${provider}). Switch with /model <name>; it applies from the next prompt.`;
  if (!/^[\w.:/@-]+$/.test(name)) return `"${name}" does not look like a model name`;
  host.setModel(name);
  return `Model set to ${name} for the next prompts (provider ${provider}).`;
};

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypass'];

const mode: Run = (host, args) => {
  const wanted = args.trim();
  if (!wanted) return `Permission mode: ${modeLabel(host.runner.session.mode, host.style)} (Shift+Tab cycles)`;
  const match = MODES.find((m) => m.toLowerCase() === wanted.toLowerCase());
  if (!match) return `unknown mode "${wanted}": use one of ${MODES.join(', ')}`;
  return host.setMode(match) ?? `Permission mode: ${modeLabel(match, host.style)}`;
};

const permissions: Run = (host) => {
  const { kernel, runner, style } = host;
  const config = kernel.resolvedConfig;
  const lines = [`${style.bold('Mode')}  ${modeLabel(runner.session.mode, style)}`];
  for (const kind of ['deny', 'ask', 'allow'] as const) {
    const rules = kernel.config.permissions?.[kind];
    lines.push(style.bold(`${kind[0]!.toUpperCase()}${kind.slice(1)} rules`));
    if (!Array.isArray(rules) || !rules.length) lines.push(style.gray('  (none)'));
    else rules.forEach((rule, i) => lines.push(`  ${String(rule)}${style.gray(`  ${config.sources[`/permissions/${kind}/${i}`] ?? config.sources[`/permissions/${kind}`] ?? ''}`)}`));
  }
  lines.push(style.bold('Granted this session'));
  if (!runner.session.grants.length) lines.push(style.gray('  (none)'));
  for (const grant of runner.session.grants) lines.push(`  ${grant.rule}${style.gray(`  ${new Date(grant.time).toLocaleTimeString()}`)}`);
  return lines.join('\n');
};

const plugins: Run = (host) => {
  const { kernel, style } = host;
  return kernel.plugins
    .map((p) => `${style.bold(p.name)}${p.version ? style.gray(` ${p.version}`) : ''}${style.gray(` · ${p.listedIn}`)}\n  ${style.gray(p.hooks.length ? p.hooks.join(', ') : 'no hooks')}`)
    .join('\n');
};

/** Flattens config values into `a.b.c = value` rows with JSON pointers for their sources. */
function flatten(value: unknown, pointer: string, out: Array<[string, string, unknown]>): void {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) flatten(v, `${pointer}/${k}`, out);
    return;
  }
  out.push([pointer.slice(1).split('/').join('.'), pointer, value]);
}

const config: Run = (host) => {
  const { kernel, style } = host;
  const resolved = kernel.resolvedConfig;
  const rows: Array<[string, string, unknown]> = [];
  const { plugins: _plugins, ...values } = resolved.values;
  flatten(values, '', rows);
  const lines = [style.bold('Files') + style.gray(' (lowest first)'), ...(resolved.files.length ? resolved.files.map((f) => `  ${f}`) : [style.gray('  (none: defaults only)')])];
  lines.push(style.bold('Values'));
  for (const [key, pointer, value] of rows) {
    let source = '';
    for (let p = pointer; p && !source; p = p.slice(0, p.lastIndexOf('/'))) source = resolved.sources[p] ?? '';
    lines.push(`  ${key} = ${JSON.stringify(value)}${style.gray(`  ${source || 'defaults'}`)}`);
  }
  lines.push(style.bold('Plugins'), ...resolved.plugins.map((p) => `  ${p.spec}${style.gray(`  ${p.source}`)}`));
  return lines.join('\n');
};

const RUNS: Record<string, Run> = {
  help,
  clear: async (host) => {
    const id = await host.newConversation();
    host.clearScreen();
    return host.style.gray(`New conversation (session ${id.slice(0, 8)}).`);
  },
  cost,
  model,
  mode,
  permissions,
  plugins,
  config,
  details: (host, args) => {
    const n = args.trim() ? Number(args.trim()) : 1;
    if (!Number.isInteger(n) || n < 1) return 'usage: /details [n], where 1 is the latest tool call';
    return host.details(n).join('\n');
  },
  exit: (host) => host.exit(0),
};

/** Runs a built-in command by name. */
export function runBuiltin(name: string, host: UiHost, args: string, context: SlashCommandContext): Promise<string | void> | string | void {
  const run = RUNS[name];
  if (!run || !BUILTIN_COMMANDS.some((c) => c.name === name)) return `no built-in command /${name}`;
  return run(host, args, context);
}
