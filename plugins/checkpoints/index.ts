import { definePlugin, Stage } from '../../core/index.js';
import { CheckpointRecorder } from './capture.js';
import { rewindCli, rewindSlash } from './commands.js';
import { CHECKPOINT_ERRORS } from './errors.js';

/**
 * Checkpoints and rewind: each prompt is a checkpoint; before a prompt first changes a file, its
 * content is saved (content-addressed chunks, deflated, each stored once per session) in the
 * session's side channels, so every store keeps them and removes them with the session. `/rewind`
 * (Esc Esc in the terminal) and `assistant sessions rewind` restore the files, the conversation,
 * or both. Commands' side effects (Bash) are not tracked, and the rewind says so.
 */
export default definePlugin({
  name: 'checkpoints',
  version: '1.0.0',
  errors: CHECKPOINT_ERRORS,
  apply(kernel, _options, { logger }) {
    const recorder = new CheckpointRecorder(kernel, logger);
    kernel.hooks.sessionOpen.tapPromise('checkpoints', async (session) => recorder.open(session));
    kernel.hooks.sessionEvent.tapPromise('checkpoints', (event, info) => recorder.event(event, info.id));
    // Last, so the input is the one that will run (earlier taps may rewrite it).
    kernel.hooks.beforeToolCall.tapPromise({ name: 'checkpoints', stage: Stage.LAST }, async (call, info) => {
      await recorder.beforeCall(call, info);
      return call;
    });
    kernel.hooks.afterToolCall.tapPromise({ name: 'checkpoints', stage: Stage.FIRST }, async (result, info) => {
      await recorder.afterCall(info.call, info);
      return result;
    });
    kernel.hooks.commands.tap('checkpoints', (registry) => {
      registry.addSlash(rewindSlash(kernel, () => recorder.flush()));
      registry.addCli(rewindCli(kernel));
    });
  },
});
