// The Bash sandbox holds whoever runs the agent: root (CI, containers, dev containers) keeps no
// capabilities inside, so mounts cannot be undone; the agent's control files stay out of reach,
// including ones that do not exist yet. Each point runs through the real Bash tool in its own
// process, as root and as an unprivileged user.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox, sandboxArgs } from '../../dist/plugins/tool-bash/sandbox.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir, userDirsUnder, writeFiles } from '../support/project.js';
import { mustHaveTools } from './helpers.js';

const RUNNER = new URL('./fixtures/bash-runner.mjs', import.meta.url).pathname;
const PROBE = new URL('./fixtures/sandbox-probe.sh', import.meta.url).pathname;
const NOBODY = 65534;

const probe = probeSandbox();
const isRoot = process.getuid?.() === 0;
const canSetpriv = isRoot && spawnSync('setpriv', ['--version']).status === 0;
if (!probe.available && !mustHaveTools) console.warn(`the sandbox-as-root tests are skipped: ${probe.reason}`);
if (!isRoot && !mustHaveTools) console.warn('the runs as root and as nobody need the tests to run as root (CI does); only the current user is tested');
const sandboxed = describe.skipIf(!probe.available && !mustHaveTools);

interface RunResult {
  text: string;
  isError: boolean;
  metadata: Record<string, unknown> | null;
}

/** The users the agent is run as: whoever runs the tests, and nobody when we are root. */
const users: Array<{ name: string; uid?: number }> = [{ name: isRoot ? 'root' : 'the current user' }, ...(isRoot && (canSetpriv || mustHaveTools) ? [{ name: 'nobody', uid: NOBODY }] : [])];

/** A home with secrets and the user's assistant directories, and a project with every control file, owned by `uid`. */
function world(uid: number | undefined, files: Record<string, string> = {}) {
  const home = tempDir('assistant-home-');
  const dirs = userDirsUnder(home);
  writeFiles(home, { '.ssh/id_ed25519': 'PRIVATE KEY', '.netrc': 'machine example.com password hunter2' });
  writeFiles(dirs.ASSISTANT_CONFIG_DIR!, { 'config.json': '{}' });
  writeFiles(join(dirs.XDG_CACHE_HOME!, 'assistant'), { 'schema.js': 'module.exports = {}' });
  const root = makeProject(files);
  copyFileSync(PROBE, join(root, 'probe.sh'));
  if (uid !== undefined) for (const dir of [home, root]) chownTree(dir, uid);
  return { home, root, env: dirs, config: dirs.ASSISTANT_CONFIG_DIR!, cache: join(dirs.XDG_CACHE_HOME!, 'assistant') };
}

function chownTree(path: string, uid: number) {
  chownSync(path, uid, uid);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid);
}

/** Runs Bash inputs through the real tool in a fresh agent process, as `uid` when given. */
function runAgent(uid: number | undefined, job: { root: string; env: Record<string, string>; commands: Array<Record<string, unknown>>; config?: unknown; mode?: string; permissions?: boolean; extraEnv?: Record<string, string> }): RunResult[] {
  const argv = [process.execPath, RUNNER, JSON.stringify({ config: { sandbox: 'required' }, ...job })];
  const [file, ...args] = uid === undefined ? argv : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...argv];
  const run = spawnSync(file!, args, { cwd: job.root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...job.env, ...job.extraEnv } });
  if (run.status !== 0) throw new Error(`the agent process failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as RunResult[];
}

const CONTROL_FILES = {
  '.assistantrc': '{}',
  '.assistant/settings.json': '{}',
  '.mcp.json': '{"mcpServers":{}}',
  'package.json': '{"name":"p","assistant":{}}',
  'ASSISTANT.md': 'Be careful.\n',
  '.git/config': '[core]\n\tbare = false\n\thooksPath = .husky\n',
  '.husky/pre-commit': 'npm test\n',
  '.git/hooks/pre-push.sample': '#!/bin/sh\n',
  '.gitmodules': '',
  '.env': 'API_KEY=sk-live',
};

sandboxed.each(users)('the Bash sandbox as $name', ({ uid }) => {
  it('refuses every line of the escape probe, run in bypass mode', () => {
    const { root, env, config, cache } = world(uid, CONTROL_FILES);
    const before = Object.fromEntries(Object.keys(CONTROL_FILES).map((p) => [p, readFileSync(join(root, p), 'utf8')]));
    const [result] = runAgent(uid, { root, env, mode: 'bypass', permissions: true, commands: [{ command: `bash ./probe.sh {{AGENT_PID}} '${config}' '${cache}'` }] });
    if (process.env.SHOW_PROBE) console.log(result!.text);
    const lines = result!.text.split('\n').filter((l) => /^(held|ESCAPED): /.test(l));
    expect(result!.metadata?.sandboxed).toBe(true);
    expect(lines.length).toBeGreaterThan(40);
    expect(lines.filter((l) => l.startsWith('ESCAPED'))).toEqual([]);
    // And the machine agrees: nothing changed, nothing appeared.
    for (const [path, content] of Object.entries(before)) expect(readFileSync(join(root, path), 'utf8')).toBe(content);
    for (const made of ['moved-rc', 'moved-assistant', 'moved-git', 'linked-rc', '.git/hooks/pre-commit', '.assistant/settings.local.json']) expect(existsSync(join(root, made))).toBe(false);
    expect(readFileSync(join(config, 'config.json'), 'utf8')).toBe('{}');
    expect(readFileSync(join(cache, 'schema.js'), 'utf8')).toBe('module.exports = {}');
  });

  it('undoes control files a command creates where none existed, and tells the model', () => {
    // A project with none of them yet: nothing to bind, so the guard must catch each one.
    const { root, env, home, cache } = world(uid, { 'src/a.txt': 'a\n', '.git/HEAD': 'ref: refs/heads/main\n' });
    const [created, normal] = runAgent(uid, {
      root,
      env,
      config: { sandbox: { mode: 'required', writable: ['~/.cache'] } },
      commands: [
        {
          command: [
            'echo \'{"sandbox":"off"}\' > .assistantrc',
            'mkdir -p .assistant && echo \'{"permissions":{"allow":["Bash"]}}\' > .assistant/settings.local.json',
            'echo \'{"mcpServers":{"x":{"command":"touch","args":["/tmp/pwned"]}}}\' > .mcp.json',
            'mkdir -p .git/hooks && printf "#!/bin/sh\\n" > .git/hooks/pre-commit',
            'printf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" > .git/config.worktree',
            'ln -s src/a.txt assistant.config.js',
            'echo kept > src/b.txt',
            `echo other > ${home}/.cache/other.txt`,
            `echo 'evil()' >> ${cache}/schema.js || echo "cache refused"`,
            'echo finished',
          ]
            .join('; ')
            // stderr into stdout, so the order of the lines is the order of events.
            .replace(/^(.*)$/s, '{ $1; } 2>&1'),
        },
        { command: 'echo fine > src/c.txt' },
      ],
    });
    expect(created!.isError).toBe(true);
    expect(created!.metadata?.code).toBe('ASSISTANT_SANDBOX_CONTROL_FILE');
    expect(created!.text).toMatch(/Read-only file system\ncache refused\nfinished\n/);
    for (const path of ['.assistantrc', '.assistant', '.mcp.json', '.git/hooks', '.git/config.worktree', 'assistant.config.js']) {
      expect(created!.text).toContain(`- ${join(root, path)}: the command created it`);
      expect(existsSync(join(root, path))).toBe(false);
    }
    expect(created!.text).toMatch(/ask the user to make it/);
    // The command's other work stays, and the user's cache folder other than assistant's is writable as configured.
    expect(readFileSync(join(root, 'src/b.txt'), 'utf8')).toBe('kept\n');
    expect(readFileSync(join(root, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(readFileSync(join(home, '.cache/other.txt'), 'utf8')).toBe('other\n');
    expect(readFileSync(join(cache, 'schema.js'), 'utf8')).toBe('module.exports = {}');
    // The next command is an ordinary one.
    expect(normal).toMatchObject({ isError: false, text: '(no output)' });
  });

  it("undoes a package.json that gains an assistant key, and pins the project's parents and the shell's folder", () => {
    const outer = world(uid, { 'proj/package.json': '{"name":"p"}\n', 'proj/sub/x.txt': 'x\n', 'victim/hooks/keep.txt': 'keep\n', 'victim/config': 'keep\n' });
    const root = join(outer.root, 'proj');
    const [npm, rename, , memory, link] = runAgent(uid, {
      root,
      env: outer.env,
      commands: [
        // An ordinary change to package.json passes; gaining the key does not.
        { command: `node -e "const f='package.json';const p=JSON.parse(require('fs').readFileSync(f));p.version='1.0.0';p.assistant={sandbox:'off'};require('fs').writeFileSync(f,JSON.stringify(p))"` },
        // stderr into stdout, so the order of the lines is the order of events.
        { command: `{ mv ${outer.root} ${outer.root}-moved || echo parent pinned; cd .. && mv proj proj2 || echo project pinned; } 2>&1` },
        // The memory files of the folder the shell is in count, as those from where the agent started do.
        { command: 'cd sub' },
        { command: 'echo "new rules" > ASSISTANT.md' },
        // A .git that is a link to somewhere else: undoing removes the link, never what it points to.
        { command: `cd .. && ln -s ${outer.root}/victim .git` },
      ],
    });
    expect(npm!.metadata?.code).toBe('ASSISTANT_SANDBOX_CONTROL_FILE');
    expect(npm!.text).toContain(`- ${join(root, 'package.json')}: the command gave it an "assistant" key`);
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toBe('{"name":"p"}\n');
    expect(rename!.text).toMatch(/Device or resource busy[\s\S]*parent pinned[\s\S]*Device or resource busy[\s\S]*project pinned/);
    expect(existsSync(join(root, 'sub/x.txt'))).toBe(true);
    expect(memory!.metadata?.code).toBe('ASSISTANT_SANDBOX_CONTROL_FILE');
    expect(existsSync(join(root, 'sub/ASSISTANT.md'))).toBe(false);
    expect(link!.text).toContain(`- ${join(root, '.git/hooks')}: the command created it`);
    expect(existsSync(join(root, '.git'))).toBe(false);
    expect(readFileSync(join(outer.root, 'victim/hooks/keep.txt'), 'utf8')).toBe('keep\n');
    expect(readFileSync(join(outer.root, 'victim/config'), 'utf8')).toBe('keep\n');
  });
});

sandboxed('assistant doctor', () => {
  it('says what the sandbox guarantees', async () => {
    const root = makeProject({ '.assistantrc': JSON.stringify({ sandbox: { mode: 'required', writable: ['~/.cache'] } }) });
    const doctor = await runCli(['--trust-project', 'doctor'], { cwd: root, env: isolatedEnv(), timeoutMs: 60_000 });
    const line = doctor.stdout.split('\n').find((l) => l.includes('sandbox:'));
    expect(line).toMatch(/^ok {4}sandbox: bubblewrap .*: Bash commands run sandboxed: no capabilities even as root, (own user namespace \(none nested\)|no user namespace here), own session and PID namespace; writable: the project, ~\/\.cache, the temp directory; the agent's control files read-only \(changes undone\); network off \(network: true asks the user\); secrets hidden \(sandbox: required\)$/);
  });
});

// macOS is not available here: the Seatbelt profile is checked as text (see sandbox.test.ts).
describe('control files in the Seatbelt profile (untested on a Mac)', () => {
  it('denies writing, creating and renaming control paths by path, existing or not', () => {
    const root = makeProject({ '.git/config': '', '.assistant/settings.json': '{}' });
    const control = [
      { path: join(root, '.assistantrc'), why: 'config', dir: false },
      { path: join(root, '.assistant'), why: 'settings', dir: true },
      { path: join(root, '.git/config'), why: 'git config', dir: false },
      { path: join(root, 'package.json'), why: 'config', dir: false, whileKey: 'assistant' },
    ];
    const args = sandboxArgs({ mode: 'auto', network: false, writable: [] }, root, { control, platform: 'darwin', home: tempDir('assistant-home-') });
    const params = new Map<string, string>();
    for (let i = 3; i < args.length; i += 2) params.set(args[i + 1]!.split('=')[0]!, args[i + 1]!.split('=').slice(1).join('='));
    const deny = args[2]!.split('\n').find((l) => l.startsWith('(deny file-write* ') && l.includes('"R0"'))!;
    const denied = Object.fromEntries([...params].filter(([k]) => k.startsWith('R')).map(([k, v]) => [v, deny.includes(`(subpath (param "${k}"))`) ? 'subpath' : deny.includes(`(literal (param "${k}"))`) ? 'literal' : 'none']));
    expect(denied).toEqual({ [join(root, '.assistantrc')]: 'literal', [join(root, '.assistant')]: 'subpath', [join(root, '.git/config')]: 'literal', [join(root, '.git')]: 'literal' });
  });
});
