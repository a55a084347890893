/**
 * The test kit (everything of `<pkg>/testing` but `createTestKernel`, which config/test-kit.ts binds
 * to the configuration layer core never imports): a kernel with chosen plugins in a temp project, a
 * scripted model behind a wire-compatible fake LLM server, tool calls through the real pipeline, and
 * a record of every hook call to assert on.
 * For store authors, `describeSessionStore` runs the SessionStore conformance suite (it needs
 * vitest, an optional peer dependency).
 */
export {
  type TestKernel,
  type TestKernelOptions,
  type PluginUnderTest,
  type ToolCallInput,
  type ToolCallOptions,
  type ContextViewRequest,
} from './test-kernel.js';
export { recordHooks, type HookRecorder, type HookCall, type HookArgs, type HookResult, type RecordedHookName } from './hook-recorder.js';
export { createTempProject, type TempProject } from './project.js';
export { resultText } from './results.js';
export type { BarrierSpec, BarrierOutcome } from './fake-llm/barrier.js';
export { startFakeLlm, type FakeLlm, type FakeLlmOptions, type FakeLlmRequest } from './fake-llm/server.js';
export { runFakeLlmCli } from './fake-llm/cli.js';
export {
  checkFixture,
  readFixture,
  type Fixture,
  type TurnSpec,
  type ReplySpec,
  type ToolCallSpec,
  type ContentSpec,
  type FaultSpec,
  type MatchSpec,
  type PromptCacheOptions,
} from './fake-llm/script.js';
export {
  describeSessionStore,
  type SessionStoreFactory,
  type SessionStoreFactoryContext,
  type SessionStoreSuiteOptions,
} from './store-conformance.js';
