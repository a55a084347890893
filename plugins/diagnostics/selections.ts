import { ConfigError, formatError, isAssistantError, type AssistantError, type Kernel } from '../../core/index.js';
import { checkContextStrategy } from '../../core/kits/context/index.js';

/**
 * What a run would refuse at start: a provider, store or strategy the config names that no loaded
 * plugin provides. Subcommands boot without that check (replay works offline), so the diagnostic
 * commands make it themselves. A missing key is the environment's business (the provider check).
 */
export function selectionProblems(kernel: Kernel): AssistantError[] {
  const problems: AssistantError[] = [];
  const attempt = (select: () => void, ignored: string[] = []) => {
    try {
      select();
    } catch (error) {
      if (!isAssistantError(error)) throw error;
      if (!ignored.includes(error.code)) problems.push(error);
    }
  };
  attempt(() => kernel.provider(), ['ASSISTANT_PROVIDER_NOT_CONFIGURED']);
  const store = kernel.config.persistence?.store;
  if (typeof store === 'string' && store !== 'none') attempt(() => kernel.store());
  attempt(() => checkContextStrategy(kernel));
  return problems;
}

/** One problem as itself; several as one ASSISTANT_CONFIG_INVALID listing each, as a run reports them. */
export function combineProblems(problems: AssistantError[]): AssistantError {
  if (problems.length === 1) return problems[0]!;
  const indent = (text: string) => text.replace(/\n/g, '\n    ');
  return new ConfigError('ASSISTANT_CONFIG_INVALID', `the configuration has ${problems.length} problems:\n  ${problems.map((p) => indent(formatError(p))).join('\n  ')}`, {
    file: problems[0]!.file,
    cause: problems[0],
  });
}
