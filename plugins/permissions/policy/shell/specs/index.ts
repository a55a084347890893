import type { Judge } from '../spec.js';
import { devSpecs } from './dev.js';
import { execSpecs, interpreterFamily } from './exec.js';
import { fileSpecs } from './files.js';
import { git } from './git.js';
import { networkSpecs } from './network.js';
import { searchSpecs } from './search.js';
import { systemSpecs } from './system.js';
import { textSpecs } from './text.js';
import { builtinSpecs } from './builtins.js';

// Assigned table by table, not spread into one literal first: the literal's ~400 keys were a second
// table built at every start that judges a command.
const SPECS: Record<string, Judge> = Object.assign(
  Object.create(null) as Record<string, Judge>,
  textSpecs,
  builtinSpecs,
  searchSpecs,
  fileSpecs,
  systemSpecs,
  networkSpecs,
  devSpecs,
  execSpecs,
  { git },
);

/** The judge for a command name, or undefined when assistant does not know the command. */
export function judgeFor(name: string): Judge | undefined {
  const direct = SPECS[name];
  if (direct) return direct;
  if (/^mkfs\.\w+$/.test(name)) return SPECS.mkfs;
  const family = interpreterFamily(name);
  return family ? SPECS[family] : undefined;
}
