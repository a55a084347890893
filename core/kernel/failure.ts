import { AssistantError, isAssistantError } from './errors.js';
import type { Kernel } from './kernel-types.js';

/**
 * A fatal error is ending the run: tells the `failed` observers (a throwing observer is logged and
 * ignored, so the error path never breaks) and returns the exit status. A plugin's code maps through
 * the kernel's registry; without a kernel (boot failed) the error's own status, else 1.
 */
export function reportFailure(kernel: Kernel | undefined, error: unknown): number {
  if (kernel) {
    const coded = isAssistantError(error)
      ? error
      : new AssistantError('ASSISTANT_INTERNAL', (error as Error)?.message ?? String(error), { cause: error });
    try {
      kernel.hooks.failed.call(coded);
    } catch (observerError) {
      kernel.logger.warn(`a failed observer threw: ${(observerError as Error)?.message ?? observerError}`);
    }
    return kernel.errorCodes.exitStatus(error);
  }
  const own: unknown = isAssistantError(error) ? error.exitCode : undefined;
  return Number.isInteger(own) && (own as number) > 0 && (own as number) < 256 ? (own as number) : 1;
}
