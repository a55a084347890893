import { createInterface } from 'node:readline/promises';
import type { ProjectTrust } from '../core/types/config.js';

/** Asks on the terminal whether to trust the project's widening settings; anything but yes is no. */
export async function askToTrust(trust: ProjectTrust): Promise<boolean> {
  const lines = [
    `This project has settings that widen what assistant may do (${trust.root}):`,
    ...trust.ignored.map((what) => `  - ${what}`),
    'Only trust a project whose settings you wrote or checked. Trust it? [y/N] ',
  ];
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const answer = await rl.question(lines.join('\n'));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
