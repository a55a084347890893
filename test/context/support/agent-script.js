// Scripted agents for long sessions: each prompt takes a few tool turns, then a final answer.

/** @typedef {import('../../../dist/core/index.js').ProviderRequest} ProviderRequest */

/** Tool turns since the latest prompt the user typed. @param {ProviderRequest['messages']} messages */
function toolTurnsSincePrompt(messages) {
  let turns = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && (m.meta?.origin === 'user' || m.meta?.origin === undefined)) break;
    if (m.role === 'tool') turns++;
  }
  return turns;
}

/**
 * @param {{
 *   callsPerTurn?: number,
 *   turnsPerPrompt?: number,
 *   call?: (request: number, j: number) => { name: string, input: Record<string, unknown> },
 *   text?: string,
 * }} [options]
 * @returns {(request: ProviderRequest, index: number) => any[]}
 */
export function agentScript(options = {}) {
  const callsPerTurn = options.callsPerTurn ?? 1;
  const turnsPerPrompt = options.turnsPerPrompt ?? 3;
  const call = options.call ?? ((request, j) => ({ name: 'Read', input: { file_path: `src/module-${(request * 7 + j) % 40}.ts` } }));
  const text = options.text ?? 'Looking at the code.';
  return (request, index) => {
    if (toolTurnsSincePrompt(request.messages) >= turnsPerPrompt) return [{ type: 'text', text: `Done with step ${index}.` }];
    const calls = Array.from({ length: callsPerTurn }, (_, j) => ({ type: 'tool_call', id: `call_${index}_${j}`, ...call(index, j) }));
    return [{ type: 'text', text }, ...calls];
  };
}
