import type { ProjectTrust } from '../core/types/config.js';

/** Asks on the terminal whether to trust the project's widening settings; anything but yes is no. */
export async function askToTrust(trust: ProjectTrust): Promise<boolean> {
  const lines = [
    `This project has settings that widen what assistant may do (${trust.root}):`,
    ...trust.ignored.map((what) => `  - ${what}`),
    'Only trust a project whose settings you wrote or checked. Trust it? [y/N] ',
  ];
  const rl = process.getBuiltinModule('node:readline/promises').createInterface({ input: process.stdin, output: process.stderr, terminal: true }); // loaded only to ask
  try {
    const answer = await rl.question(lines.join('\n'));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
