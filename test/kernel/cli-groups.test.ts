// Two plugins may add subcommands to one group (`assistant sessions rewind` beside `sessions list`);
// a subcommand contributed twice, or a name that is a command of its own, is still refused.
import { describe, expect, it } from 'vitest';
import { createCommandRegistry } from '../../dist/core/kernel/commands.js';

const group = (...names: string[]) => ({ name: 'sessions', description: 'sessions', subcommands: names.map((name) => ({ name, description: name, action: () => undefined })) });

describe('CLI command groups', () => {
  it('merge the subcommands two plugins add under one name, and refuse a subcommand added twice', () => {
    let plugin = 'session-commands';
    const registry = createCommandRegistry(() => plugin);
    registry.addCli(group('list', 'show'));
    plugin = 'checkpoints';
    registry.addCli(group('rewind'));
    expect(registry.listCli().map((c) => [c.name, c.subcommands?.map((s) => s.name)])).toEqual([['sessions', ['list', 'show', 'rewind']]]);
    plugin = 'other';
    expect(() => registry.addCli(group('show'))).toThrow('subcommand "sessions show" is contributed twice (by "session-commands" and "other")');
    expect(() => registry.addCli({ name: 'sessions', description: 'x', action: () => undefined })).toThrow('subcommand "sessions" is contributed twice');
  });
});
