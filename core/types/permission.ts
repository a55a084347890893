import type { ToolCategory } from './tools.js';

/** `default` asks for edits and commands; `acceptEdits` allows edits in the project; `plan` is read-only; `bypass` allows all but hard blocks. */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypass';

/** One tool call, as the permission engine sees it. */
export interface PermissionRequest {
  tool: string;
  input: Record<string, unknown>;
  category: ToolCategory;
  /** Paths the call touches, as given (policies resolve them, symlinks included). */
  paths: string[];
  /** The shell command, for tools that run one. */
  command?: string;
  projectRoot: string;
  cwd: string;
  mode: PermissionMode;
  /** No one to ask: an `ask` outcome becomes a denial. */
  headless: boolean;
  sessionId?: string;
  agentId?: string;
  callId?: string;
}

/** A policy layer's verdict. `ask` means a person must approve. */
export interface PermissionDecision {
  behavior: 'allow' | 'deny' | 'ask';
  /** Why, in words the user and the model can act on. */
  reason: string;
  /** The layer (plugin) that decided. */
  layer: string;
  /** Grant pattern a "yes for this session / always" answer would record, e.g. `Bash(npm test:*)`. */
  suggestedRule?: string;
}

/** What the user answered to an approval prompt. */
export interface ApprovalAnswer {
  behavior: 'allow' | 'deny';
  scope: 'once' | 'session' | 'project';
  /** For a denial: what the model should do instead. */
  message?: string;
}

/** A pending approval, with the decision that asked for it. */
export interface ApprovalRequest {
  request: PermissionRequest;
  decision: PermissionDecision;
}
