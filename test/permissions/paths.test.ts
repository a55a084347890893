import { beforeAll, describe, expect, it } from 'vitest';
import { checkBatch, policyFixture, type CheckRequest, type CheckResult, type PolicyFixture } from './support.js';

type Mode = NonNullable<CheckRequest['mode']>;
type Expect = { behavior: CheckResult['behavior']; layer?: string; reason?: RegExp };
interface Case {
  name: string;
  tool: string;
  input: (f: PolicyFixture) => Record<string, unknown>;
  expect: Partial<Record<Mode, Expect>>;
}

const allow = (layer?: string): Expect => ({ behavior: 'allow', layer });
const ask = (reason?: RegExp): Expect => ({ behavior: 'ask', layer: 'default', reason });
const deny = (layer: string, reason?: RegExp): Expect => ({ behavior: 'deny', layer, reason });
const everyMode = (e: Expect): Partial<Record<Mode, Expect>> => ({ default: e, acceptEdits: e, plan: e, bypass: e });
const file = (path: string) => () => ({ file_path: path });

const cases: Case[] = [
  // Reads inside the project run in every mode.
  { name: 'read inside', tool: 'Read', input: file('src/a.ts'), expect: { default: allow('mode'), plan: allow('mode'), acceptEdits: allow('mode') } },
  { name: 'read through ../ that stays inside', tool: 'Read', input: file('src/../src/a.ts'), expect: { default: allow('mode') } },
  { name: 'read by absolute path inside', tool: 'Read', input: (f) => ({ file_path: `${f.root}/README.md` }), expect: { default: allow('mode') } },
  { name: 'grep inside', tool: 'Grep', input: () => ({ pattern: 'x', path: 'src' }), expect: { default: allow('mode') } },
  { name: 'glob the project', tool: 'Glob', input: () => ({ pattern: '**/*.ts' }), expect: { default: allow('mode') } },
  { name: 'LS a folder', tool: 'LS', input: () => ({ path: 'docs' }), expect: { default: allow('mode') } },
  { name: '.env.example is not a secret', tool: 'Read', input: file('.env.example'), expect: { default: allow('mode') } },
  // Reads outside the project ask; bypass allows them.
  { name: 'read /etc/hosts', tool: 'Read', input: file('/etc/hosts'), expect: { default: ask(/outside the project: \/etc\/hosts/), plan: ask(), bypass: allow('mode') } },
  { name: 'read ../ traversal out', tool: 'Read', input: file('../outside.txt'), expect: { default: ask(/outside the project/) } },
  { name: 'read src/../../ traversal out', tool: 'Read', input: file('src/../../x.txt'), expect: { default: ask(/outside the project/) } },
  { name: 'read through a symlink out of the project', tool: 'Read', input: file('link-out/file.txt'), expect: { default: ask(/outside the project: .*assistant-outside-/) } },
  { name: 'read a file in the home directory', tool: 'Read', input: (f) => ({ file_path: `${f.home}/notes.txt` }), expect: { default: ask(/outside the project/) } },
  { name: 'grep outside', tool: 'Grep', input: () => ({ pattern: 'x', path: '/usr/share' }), expect: { default: ask(/outside/) } },
  // Secrets are denied in every mode, matched without regard to case, through symlinks too.
  ...['.env', '.ENV', '.Env.Local', 'sub/.env.production', 'link-to-env', 'link-ssh/config', '.git/config', '.GIT/Config', 'credentials.json', 'config/secrets.yml', 'server.key', '.npmrc'].map(
    (path): Case => ({ name: `read secret ${path}`, tool: 'Read', input: file(path), expect: everyMode(deny('guard', /secret|credentials|keys/)) }),
  ),
  { name: 'read ~/.ssh/id_rsa', tool: 'Read', input: (f) => ({ file_path: `${f.home}/.ssh/id_rsa` }), expect: everyMode(deny('guard', /\.ssh/)) },
  { name: 'read ~/.aws/credentials', tool: 'Read', input: (f) => ({ file_path: `${f.home}/.aws/credentials` }), expect: everyMode(deny('guard')) },
  { name: 'grep in ~/.ssh', tool: 'Grep', input: (f) => ({ pattern: 'x', path: `${f.home}/.ssh` }), expect: everyMode(deny('guard')) },
  { name: 'edit .env', tool: 'Edit', input: file('.env'), expect: everyMode(deny('guard')) },
  { name: 'write .env.local', tool: 'Write', input: () => ({ file_path: '.env.local', content: 'x' }), expect: everyMode(deny('guard')) },
  // Malformed paths are rejected cleanly: by the input schema where it can tell (as the pipeline does), else by the guard.
  { name: 'NUL byte', tool: 'Read', input: file('src/a.ts\u0000.png'), expect: everyMode(deny('guard', /NUL/)) },
  { name: 'not a string', tool: 'Read', input: () => ({ file_path: 42 }), expect: everyMode(deny('validate', /must be string/)) },
  { name: 'empty path', tool: 'Edit', input: file(''), expect: everyMode(deny('validate', /fewer than 1/)) },
  { name: 'a list instead of a path', tool: 'Edit', input: () => ({ file_path: ['a', 'b'] }), expect: everyMode(deny('validate', /string/)) },
  { name: 'control characters', tool: 'Write', input: file('src/a\u0007.ts'), expect: everyMode(deny('guard', /control/)) },
  { name: 'overlong path', tool: 'Read', input: file('a/'.repeat(3000)), expect: everyMode(deny('validate', /more than/)) },
  { name: 'NUL in a shell command', tool: 'Bash', input: () => ({ command: 'ls\u0000rm -rf /' }), expect: everyMode(deny('guard', /NUL/)) },
  { name: 'command that is not a string', tool: 'Bash', input: () => ({ command: { evil: true } }), expect: everyMode(deny('validate', /must be string/)) },
  // Edits inside the project: ask by default, run in acceptEdits, refused in plan.
  { name: 'edit inside', tool: 'Edit', input: file('src/a.ts'), expect: { default: ask(/Edit changes src\/a.ts/), acceptEdits: allow('mode'), plan: deny('mode', /plan mode is read-only/), bypass: allow('mode') } },
  { name: 'write a new file inside', tool: 'Write', input: file('src/new/deep.ts'), expect: { default: ask(), acceptEdits: allow('mode'), plan: deny('mode') } },
  { name: 'multi-edit inside', tool: 'MultiEdit', input: file('docs/guide.md'), expect: { acceptEdits: allow('mode'), plan: deny('mode') } },
  // Writes outside the project are refused unless a rule allows them; bypass allows them.
  { name: 'edit outside', tool: 'Edit', input: (f) => ({ file_path: `${f.outside}/file.txt` }), expect: { default: deny('paths', /outside the project/), acceptEdits: deny('paths'), plan: deny('mode'), bypass: allow('mode') } },
  { name: 'edit ../ traversal out', tool: 'Edit', input: file('../escape.txt'), expect: { default: deny('paths'), acceptEdits: deny('paths') } },
  { name: 'edit through a symlink out', tool: 'Edit', input: file('link-out/file.txt'), expect: { default: deny('paths'), acceptEdits: deny('paths') } },
  { name: 'write through a dangling symlink out', tool: 'Write', input: file('dangling-out'), expect: { acceptEdits: deny('paths', /not-yet\.txt/) } },
  // System files and shell start-up files are hard blocks, bypass included.
  { name: 'edit /etc/hosts', tool: 'Edit', input: file('/etc/hosts'), expect: everyMode(deny('guard', /\/etc/)) },
  { name: 'write a device', tool: 'Write', input: file('/dev/sda'), expect: everyMode(deny('guard', /\/dev/)) },
  { name: 'edit ~/.bashrc', tool: 'Edit', input: (f) => ({ file_path: `${f.home}/.bashrc` }), expect: everyMode(deny('guard', /start-up file/)) },
  { name: 'edit a shell file through a symlink', tool: 'Edit', input: file('link-rc'), expect: everyMode(deny('guard', /start-up file/)) },
  // Files that steer assistant or git always need a person, even in acceptEdits.
  // The mode layer asks for control files (kernel.controlFiles), before any allow rule can speak.
  { name: 'edit .assistantrc', tool: 'Edit', input: file('.assistantrc'), expect: { acceptEdits: { behavior: 'ask', layer: 'mode', reason: /configuration/ }, bypass: allow('mode') } },
  { name: 'write a git hook', tool: 'Write', input: file('.git/hooks/pre-commit'), expect: { acceptEdits: { behavior: 'ask', layer: 'mode', reason: /git hooks/ } } },
  { name: 'edit the local settings', tool: 'Edit', input: file('.assistant/settings.local.json'), expect: { acceptEdits: { behavior: 'ask', layer: 'mode', reason: /project settings/ } } },
  // acceptEdits covers simple file operations in the shell too, inside the project only.
  { name: 'mkdir and touch in the project', tool: 'Bash', input: () => ({ command: 'mkdir -p src/new && touch src/new/x.ts' }), expect: { default: ask(/creates/), acceptEdits: allow('mode'), plan: deny('mode') } },
  { name: 'copy out of the project', tool: 'Bash', input: (f) => ({ command: `cp src/a.ts ${f.outside}/a.ts` }), expect: { acceptEdits: deny('paths') } },
  { name: 'redirect into a dotfile in the project', tool: 'Bash', input: () => ({ command: 'echo x >> .bashrc' }), expect: { default: { behavior: 'ask', layer: 'mode' }, acceptEdits: { behavior: 'ask', layer: 'mode' }, plan: deny('mode') } },
  { name: 'redirect into the home shell file', tool: 'Bash', input: () => ({ command: 'echo x >> ~/.bashrc' }), expect: everyMode(deny('guard', /start-up file/)) },
  { name: 'shell write through a symlink out', tool: 'Bash', input: () => ({ command: 'echo x > link-out/new.txt' }), expect: { default: deny('paths'), bypass: allow('mode') } },
  { name: 'shell read through a symlink out', tool: 'Bash', input: () => ({ command: 'cat link-out/file.txt' }), expect: { default: ask(/outside the project/), plan: ask() } },
  { name: 'shell .. traversal out', tool: 'Bash', input: () => ({ command: 'cat src/../../x.txt' }), expect: { default: ask(/outside the project/) } },
  // Tools without paths.
  { name: 'an MCP tool', tool: 'mcp__github__create_issue', input: () => ({ title: 'x' }), expect: { default: ask(), plan: deny('mode'), bypass: allow('mode') } },
  { name: 'a network tool', tool: 'WebFetch', input: () => ({ url: 'https://example.com' }), expect: { default: ask(/network/), plan: ask() } },
];

let fixture: PolicyFixture;
const decided = new Map<string, CheckResult>();

beforeAll(async () => {
  fixture = policyFixture();
  const requests: Array<CheckRequest & { key: string }> = [];
  for (const c of cases) for (const mode of Object.keys(c.expect) as Mode[]) requests.push({ key: `${c.name}/${mode}`, tool: c.tool, input: c.input(fixture), mode });
  const results = await checkBatch(fixture, requests.map(({ key: _key, ...r }) => r));
  requests.forEach((r, i) => decided.set(r.key, results[i]!));
}, 180_000);

describe('file tool paths', () => {
  for (const c of cases)
    for (const [mode, want] of Object.entries(c.expect) as Array<[Mode, Expect]>)
      it(`${c.name} (${mode}) → ${want.behavior}${want.layer ? ` by ${want.layer}` : ''}`, () => {
        const got = decided.get(`${c.name}/${mode}`)!;
        expect(got.error, got.error).toBeUndefined();
        expect({ behavior: got.behavior, layer: want.layer === undefined ? undefined : got.layer }, got.reason).toEqual({ behavior: want.behavior, layer: want.layer });
        if (want.reason) expect(got.reason).toMatch(want.reason);
      });

  it('suggests a rule a "yes, always" answer can record', () => {
    expect(decided.get('edit inside/default')!.suggestedRule).toBe('Edit(src/**)');
    expect(decided.get('read /etc/hosts/default')!.suggestedRule).toBe('Read(/etc/**)');
    expect(decided.get('an MCP tool/default')!.suggestedRule).toBe('mcp__github__create_issue');
    // Nothing to suggest for a protected file.
    expect(decided.get('edit .assistantrc/acceptEdits')!.suggestedRule).toBeUndefined();
  });
});
