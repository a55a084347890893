import type { Kernel } from '../../core/kernel-types.js';
import { AssistantError } from '../../core/errors.js';
import type { CommonFlags } from '../boot.js';

/** Flags of the main command. */
export interface RunFlags extends CommonFlags {
  print?: boolean;
}

/** The main job: `assistant [prompt]` / `assistant -p "..."`. */
export async function runMain(kernel: Kernel, prompt: string, _flags: RunFlags): Promise<number> {
  await kernel.start();
  kernel.provider();
  void prompt;
  throw new AssistantError('ASSISTANT_INTERNAL', 'the agent loop is not part of this build yet');
}
