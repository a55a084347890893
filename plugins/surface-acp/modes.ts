import * as acp from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../../core/index.js';

const MODES: Array<{ id: PermissionMode; name: string; description: string }> = [
  { id: 'default', name: 'Default', description: 'Ask before edits and commands the rules do not allow' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Edit files in the project without asking; ask before commands' },
  { id: 'plan', name: 'Plan', description: 'Read-only: look around and plan, change nothing' },
  { id: 'bypass', name: 'Bypass', description: 'Allow everything but the hard blocks' },
];

/**
 * The permission modes an editor may switch between, as the terminal allows: `bypass` only when the
 * session started in it (the configuration or `--permission-mode bypass` chose it, not the editor).
 */
export function modeState(current: PermissionMode, startMode: PermissionMode): acp.SessionModeState {
  return { currentModeId: current, availableModes: MODES.filter((m) => m.id !== 'bypass' || startMode === 'bypass') };
}

/** The mode an editor asked for, if it may have it; a coded error otherwise. */
export function checkMode(modeId: string, startMode: PermissionMode): PermissionMode {
  const mode = modeState(startMode, startMode).availableModes.find((m) => m.id === modeId);
  if (!mode)
    throw new acp.RequestError(-32602, `ASSISTANT_ACP_MODE_REFUSED: no mode "${modeId}" here${modeId === 'bypass' ? ' (bypass can only be chosen at start: --permission-mode bypass or the configuration)' : ''}`, {
      code: 'ASSISTANT_ACP_MODE_REFUSED',
    });
  return mode.id as PermissionMode;
}
