import { definePlugin, lazyImport, AssistantError, SessionError, type Kernel } from '../../core/index.js';
import { installRecorder } from './recorder.js';
import type { ReplayReport } from './replayer.js';
import { REPLAY_ERRORS } from './errors.js';

/** The replayer (a loop fed from the recording), imported when `assistant replay` runs. */
const replayer = lazyImport('replay', 'replayer', () => import('./replay-parts.js'));

async function sessionIdFor(kernel: Kernel, prefix: string): Promise<string> {
  const matches = await kernel.store().resolve(prefix, kernel.projectRoot);
  if (matches.length === 1) return matches[0]!;
  if (!matches.length) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `no stored session id starts with "${prefix}"; list them with: assistant sessions list --all`);
  throw new SessionError('ASSISTANT_SESSION_AMBIGUOUS', `"${prefix}" matches ${matches.length} sessions: ${matches.map((id) => id.slice(0, 12)).join(', ')}; give more of the id`);
}

function reportText(r: ReplayReport): string {
  const lines = [
    `replayed session ${r.sessionId.slice(0, 8)}: ${r.prompts} prompt(s), ${r.modelCalls.replayed} model call(s) (recorded ${r.modelCalls.recorded}), ${r.toolCalls.replayed} tool call(s) ${r.toolCalls.mode === 'live' ? 'run again' : 'served from the recording'}`,
  ];
  if (!r.divergences.length) lines.push('no divergence: the run behaved as recorded');
  else lines.push(`${r.divergences.length} divergence(s):`, ...r.divergences.map((d) => `  ${d.at}: ${d.detail}`));
  return lines.join('\n') + '\n';
}

/**
 * Deterministic replay. With `persistence.record` (or `--record`) the session keeps every model
 * request and answer and every tool call; `assistant replay <id>` re-runs it offline with the
 * recorded answers and reports where behaviour diverges.
 */
export default definePlugin({
  name: 'replay',
  errors: REPLAY_ERRORS,
  version: '1.0.0',
  apply(kernel) {
    if (kernel.config.persistence?.record === true) installRecorder(kernel);
    kernel.hooks.commands.tap('replay', (registry) =>
      registry.addCli({
        name: 'replay',
        description: 're-run a recorded session offline with the recorded model answers and report where behaviour diverges',
        arguments: '<id>',
        options: [
          { flags: '--tools <mode>', description: 'recorded: tools answer from the recording; live: run them again and compare', default: 'recorded' },
          { flags: '--ignore-section <ids>', description: 'system-prompt sections whose changes are expected (comma-separated)', default: 'environment' },
          { flags: '--json', description: 'the report as JSON' },
        ],
        async action([prefix], opts) {
          const tools = String(opts.tools);
          if (tools !== 'recorded' && tools !== 'live') throw new AssistantError('ASSISTANT_USAGE', `--tools must be recorded or live (got "${tools}")`);
          await kernel.start();
          const id = await sessionIdFor(kernel, prefix!);
          const { replaySession, fromJson } = await replayer();
          const entries = fromJson(await kernel.store().readRecords(id, 'recording'));
          if (!entries.some((e) => e.kind === 'request'))
            throw new SessionError(REPLAY_ERRORS.ASSISTANT_REPLAY_NO_RECORDING, `session ${id.slice(0, 8)} was not recorded; run with --record (or set persistence.record: true) to record sessions for replay`);
          const snapshot = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
          const report = await replaySession(kernel, id, entries, {
            tools,
            ignoreSections: String(opts.ignoreSection ?? '').split(',').map((s) => s.trim()).filter(Boolean),
            mode: snapshot?.info.mode ?? 'default',
          });
          process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : reportText(report));
          return report.divergences.length ? 1 : 0;
        },
      }),
    );
  },
});
