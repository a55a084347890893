import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { homedir } from 'node:os';
import { declaredPaths, decidePermission, definePlugin, realPath, userDirs, type Kernel, type SystemSection, type TextPart, type ToolCallInfo, type ToolCallPart, type ToolResultPart } from '../../core/index.js';
import { estimateTextTokens } from '../../core/kits/provider/index.js';
import { addedDirectoriesOf, onDirectoryAdded } from '../../core/kits/fs/index.js';
import { directoryChain, isInside, readMemoryFile, repositoryRoot, type MemoryFile, type MemoryScope, type ReadOptions } from './discover.js';

interface Options {
  /** File names read in each directory, in this order. */
  fileNames?: string[];
  /** Most tokens of memory text in the system prompt; the rest is cut with a marker. */
  maxTokens?: number;
  /** How deep `@path` imports are followed. */
  importDepth?: number;
  /** Also read the memory files of directories the agent works in (attached to the tool result that first touches them). */
  directories?: boolean;
}

/**
 * Memory files: standing instructions in ASSISTANT.md (and AGENTS.md / CLAUDE.md, so a project that
 * has them needs nothing new) from the user's config dir, the repository root down to the project
 * root and the working directory, and the folders the user added (`--add-dir`, `/add-dir`), with `@path` imports. Read once per session into a byte-stable
 * system prompt section; files of directories the agent later works in are attached to the tool
 * result that first touches them, so the cached prefix never changes. `/memory` lists and opens them.
 */
export default definePlugin<Options>({
  name: 'memory-files',
  version: '1.0.0',
  configKey: 'memory',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      fileNames: { type: 'array', items: { type: 'string', pattern: '^[^/\\\\]+$' }, minItems: 1, default: ['ASSISTANT.md', 'AGENTS.md', 'CLAUDE.md', 'ASSISTANT.local.md'] },
      maxTokens: { type: 'integer', minimum: 100, default: 10000 },
      importDepth: { type: 'integer', minimum: 0, maximum: 10, default: 5 },
      directories: { type: 'boolean', default: true },
    },
  },
  apply(kernel, options, { logger }) {
    const names = options.fileNames ?? ['ASSISTANT.md', 'AGENTS.md', 'CLAUDE.md', 'ASSISTANT.local.md'];
    // Standing instructions: a command that rewrites one steers every later session.
    for (const name of names) kernel.controlFiles.declare({ path: name, why: 'a memory file (standing instructions to the agent)', searched: true, declaredBy: 'memory-files' });
    const maxTokens = options.maxTokens ?? 10000;
    let loaded: Promise<{ files: MemoryFile[]; warnings: string[]; section?: SystemSection }> | undefined;
    // Directories whose memory files are already in context, per conversation.
    const covered = new Map<string | undefined, Set<string>>();
    const seen = new Set<string>();

    const display = (path: string) => (isInside(kernel.projectRoot, path) ? relative(kernel.projectRoot, path) || '.' : path.replace(homedir(), '~'));
    const denied = async (path: string) => {
      const decision = await decidePermission(kernel.hooks, {
        tool: 'Read',
        input: { file_path: path },
        category: 'read',
        paths: [path],
        projectRoot: kernel.projectRoot,
        cwd: kernel.cwd,
        mode: kernel.session?.mode ?? kernel.config.permissions?.mode ?? 'default',
        headless: true,
      });
      return decision.behavior === 'deny' ? decision.reason : undefined;
    };
    const readIn = async (dirs: string[], scope: MemoryScope, scopeRoot: string, warnings: string[]) => {
      const read: ReadOptions = { importDepth: options.importDepth ?? 5, scopeRoot, denied, seen, warnings };
      const files: MemoryFile[] = [];
      for (const dir of dirs) for (const name of names) files.push(...(await readMemoryFile(join(dir, name), scope, read)));
      return files;
    };
    const addedDirs = () => addedDirectoriesOf(kernel, realPath(kernel.projectRoot));
    const readAdded = async (warnings: string[]) => {
      const files: MemoryFile[] = [];
      for (const dir of addedDirs()) files.push(...(await readIn([dir], 'added', dir, warnings)));
      return files;
    };
    const render = (files: MemoryFile[]) =>
      files
        .map((f) => `<memory-file path="${display(f.path)}" scope="${f.scope}"${f.importedBy ? ` imported-by="${display(f.importedBy)}"` : ''}>\n${f.text}\n</memory-file>`)
        .join('\n');

    const load = async () => {
      const warnings: string[] = [];
      const userDir = userDirs().config;
      const top = repositoryRoot(kernel.projectRoot) ?? kernel.projectRoot;
      const projectDirs = directoryChain(top, kernel.projectRoot);
      const workDirs = isInside(kernel.projectRoot, kernel.cwd) ? directoryChain(kernel.projectRoot, kernel.cwd).slice(1) : [];
      const files = [
        ...(await readIn([userDir], 'user', homedir(), warnings)),
        ...(await readIn(projectDirs, 'project', top, warnings)),
        ...(await readIn(workDirs, 'directory', kernel.projectRoot, warnings)),
        // Folders the user added (--add-dir, /add-dir, their own or a trusted project's config) hold standing instructions too; imports stay inside each.
        ...(await readAdded(warnings)),
      ].filter((f, i, all) => f.text && all.findIndex((g) => g.text === f.text) === i);
      covered.set(undefined, new Set([...projectDirs, ...workDirs, ...addedDirs()]));
      if (!files.length) return { files, warnings };
      let text = render(files);
      if (estimateTextTokens(text) > maxTokens) {
        text = text.slice(0, Math.floor(maxTokens * 3.5));
        text += `\n[... memory files cut here: they exceed memory.maxTokens (${maxTokens})]`;
        warnings.push(`memory files exceed memory.maxTokens (${maxTokens}) and were cut`);
      }
      const intro = 'Instructions from memory files (ASSISTANT.md, AGENTS.md, CLAUDE.md). Follow them; a file deeper in the tree takes precedence over one above it.';
      return { files, warnings, section: { id: 'memory', part: 'memory' as const, text: `<memory>\n${intro}\n\n${text}\n</memory>` } };
    };
    const memory = () => (loaded ??= load());
    // A memory file written while the session runs (a `#note`, an edit) applies from the next request.
    onDirectoryAdded(kernel, () => ((loaded = undefined), seen.clear(), covered.clear()));
    kernel.files.onChange((paths) => {
      if (paths.some((p) => p !== '*' && names.includes(basename(p)))) (loaded = undefined), seen.clear(), covered.clear();
    });

    kernel.hooks.systemPrompt.tapPromise('memory-files', async (sections) => {
      const { section } = await memory();
      return section ? [...sections, section] : sections;
    });

    if (options.directories ?? true)
      kernel.hooks.afterToolCall.tapPromise('memory-files', async (result, info) => {
        if (result.isError) return result;
        try {
          return await withDirectoryMemory(result, info);
        } catch (error) {
          // Memory is an extra: a folder moved or deleted meanwhile must never turn a done call into a failure.
          logger.warn(`could not attach the memory files of the folder ${info.call.name} worked in: ${(error as Error).message}`);
          return result;
        }
      });

      /** The result with the memory files of the folders the call touched that the agent has not seen yet. */
      async function withDirectoryMemory(result: ToolResultPart, info: ToolCallInfo & { call: ToolCallPart }): Promise<ToolResultPart> {
        await memory();
        const touched = declaredPaths(info.definition, info.call.input, { projectRoot: kernel.projectRoot, cwd: kernel.cwd });
        const paths = [...touched.reads, ...touched.writes];
        const done = covered.get(info.turn.agentId) ?? new Set(covered.get(undefined));
        covered.set(info.turn.agentId, done);
        // By tree (the project, each added folder): a folder's imports stay inside its own tree.
        const fresh = new Map<string, string[]>();
        const roots = [kernel.projectRoot, ...addedDirs()];
        for (const raw of paths) {
          const path = resolve(kernel.projectRoot, raw);
          const top = roots.find((root) => isInside(root, path));
          if (!top) continue;
          const dir = statSync(path, { throwIfNoEntry: false })?.isDirectory() ? path : dirname(path);
          for (const d of directoryChain(top, dir)) if (!done.has(d)) (done.add(d), fresh.set(top, [...(fresh.get(top) ?? []), d]));
        }
        const files: MemoryFile[] = [];
        for (const [top, dirs] of fresh) files.push(...(await readIn(dirs, 'directory', top, [])));
        if (!files.length) return result;
        const note: TextPart = { type: 'text', text: `\n<memory>\nInstructions from memory files of the directory you are working in:\n${render(files)}\n</memory>` };
        return { ...result, content: [...result.content, note] };
      }

    kernel.hooks.commands.tap('memory-files', (registry) =>
      registry.addSlash({
        name: 'memory',
        description: 'List the memory files in context, or open one in $EDITOR (`/memory open user|project|<n>`)',
        usage: '[open user|project|<n>]',
        run: async (args) => memoryCommand(kernel, args.trim(), memory, () => ((loaded = undefined), seen.clear(), covered.clear())),
      }),
    );
  },
});

async function memoryCommand(
  kernel: Kernel,
  args: string,
  memory: () => Promise<{ files: MemoryFile[]; warnings: string[] }>,
  reload: () => void,
): Promise<string> {
  const { files, warnings } = await memory();
  const [verb, which] = args.split(/\s+/);
  if (verb !== 'open') {
    const lines = files.length
      ? files.map((f, i) => `${i + 1}. [${f.scope}] ${f.path}${f.importedBy ? ` (imported by ${f.importedBy})` : ''} · ${estimateTextTokens(f.text)} tokens`)
      : ['No memory files yet. `/memory open project` creates ASSISTANT.md in the project root; `/memory open user` one for all your projects.'];
    return [...lines, ...warnings.map((w) => `warning: ${w}`)].join('\n');
  }
  const target =
    which === 'user'
      ? join(userDirs().config, 'ASSISTANT.md')
      : which === 'project' || which === undefined
        ? (files.find((f) => f.scope === 'project' && !f.importedBy)?.path ?? join(kernel.projectRoot, 'ASSISTANT.md'))
        : files[Number(which) - 1]?.path;
  if (!target) return `no memory file ${which}; /memory lists them`;
  if (!existsSync(target)) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, '# Memory\n\nInstructions for assistant in this ' + (which === 'user' ? 'account' : 'project') + '.\n');
  }
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor) return `${target}\n(set $EDITOR to open it from here)`;
  // $EDITOR may carry flags ("code -w"), so it runs through the shell with the path quoted.
  // node:child_process loads here, when /memory opens an editor: not at every start.
  const ran = process.getBuiltinModule('node:child_process').spawnSync(`${editor} '${target.replace(/'/g, `'\\''`)}'`, { stdio: 'inherit', shell: true });
  if (ran.status !== 0) return `${editor} exited with ${ran.status ?? ran.signal}; ${target} is unchanged if it did not save`;
  reload();
  return `${target} saved; the memory is read again for the next request`;
}
