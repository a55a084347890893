import type { ToolCategory } from './tools.js';

/** `default` asks for edits and commands; `acceptEdits` allows edits in the project; `plan` is read-only; `bypass` allows all but hard blocks. */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypass';

/** One tool call, as the permission engine sees it. */
export interface PermissionRequest {
  /** The tool called. */
  tool: string;
  /** Its input (after `beforeToolCall`). */
  input: Record<string, unknown>;
  /** What kind of action it is: the tool's `risk.category`, or `other` when a tool of another kind (read, state, network, execute) declares writes to files. */
  category: ToolCategory;
  /**
   * The files the call touches: the paths of its tool's lock set (`access`), as declared (policies
   * resolve them, symlinks included; relative ones are taken from `cwd`). Resources that are not
   * files (`@todos`) and `*` are not listed; see `unbounded`.
   */
  paths: string[];
  /**
   * The call may touch files `paths` does not name: its lock set holds `*` (everything) and no
   * `command` accounts for it, or its tool could not declare what it touches. `write` when it may
   * write them. A policy must not judge such a call by `paths` alone (it fails closed: ask or deny).
   */
  unbounded?: 'read' | 'write';
  /** The shell command, for tools that run one. */
  command?: string;
  /** The project root. */
  projectRoot: string;
  /** The directory relative paths are taken from. */
  cwd: string;
  /** The permission mode in force. */
  mode: PermissionMode;
  /** No one to ask: an `ask` outcome becomes a denial. */
  headless: boolean;
  /** The session, when one is open. */
  sessionId?: string;
  /** The sub-agent making the call; absent for the main agent. */
  agentId?: string;
  /** The call id. */
  callId?: string;
}

/** A policy layer's verdict. `ask` means a person must approve. */
export interface PermissionDecision {
  /** `allow` runs the call, `deny` refuses it, `ask` needs a person. */
  behavior: 'allow' | 'deny' | 'ask';
  /** Why, in words the user and the model can act on. */
  reason: string;
  /** The layer (plugin) that decided. */
  layer: string;
  /** Grant pattern a "yes for this session / always" answer would record, e.g. `Bash(npm test:*)`. */
  suggestedRule?: string;
  /**
   * How the user could let such a call run, in the deciding layer's words ("lift the freeze in
   * release.json"), shown when no one can approve. Absent: the generic hint (a rule in
   * `permissions.allow` or a `--permission-mode`); empty: none, no setting allows it.
   */
  hint?: string;
}

/** What the user answered to an approval prompt. */
export interface ApprovalAnswer {
  /** Run the call, or refuse it. */
  behavior: 'allow' | 'deny';
  /** This call only, the rest of the session, or always in this project. */
  scope: 'once' | 'session' | 'project';
  /** For a denial: what the model should do instead. */
  message?: string;
}

/** A pending approval, with the decision that asked for it. */
export interface ApprovalRequest {
  /** The call. */
  request: PermissionRequest;
  /** The `ask` decision and its reason. */
  decision: PermissionDecision;
}
