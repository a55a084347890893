import { hasOption, parseArgs, unknownOptions, type ArgSpec } from '../argv.js';
import type { Judge } from '../spec.js';

const changes = (what: string): Judge => (_args, _context, name) => ({ risk: 'write', reason: `\`${name}\` ${what}` });

const crontab: Judge = (args, _context, name) =>
  hasOption(parseArgs(args, { values: ['-u'] }), '-l') ? { risk: 'read', reason: `\`${name} -l\` only prints`, inert: true } : { risk: 'write', reason: `\`${name}\` changes scheduled jobs` };

const systemctl: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property', '-n', '--lines', '-o', '--output', '--state'], stopAtOperand: true });
  const sub = parsed.operands[0]?.value;
  // `-H host` / `-M machine` run it elsewhere (over ssh or in a container).
  const elsewhere = hasOption(parsed, '-H', '--host', '-M', '--machine');
  if (!elsewhere && sub && ['status', 'show', 'list-units', 'list-unit-files', 'list-timers', 'is-active', 'is-enabled', 'is-failed', 'cat', 'help'].includes(sub))
    return { risk: 'read', reason: `\`${name} ${sub}\` only prints`, inert: true };
  return { risk: 'write', reason: `\`${name}\` changes system services` };
};

const SYSCTL: ArgSpec = { flags: ['-a', '-A', '-X', '-N', '-n', '-e', '-b', '-q', '-d', '-h', '-V', '--all', '--values', '--names', '--binary', '--ignore', '--quiet', '--help', '--version'], values: ['-r', '--pattern'] };
const sysctl: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { ...SYSCTL, flags: [...SYSCTL.flags!, '-w', '--write', '-p', '--load', '--system', '-f'] });
  if (hasOption(parsed, '-w', '--write', '-p', '--load', '--system', '-f') || parsed.operands.some((a) => (a.value ?? '=').includes('=')))
    return { risk: 'write', reason: `\`${name}\` changes kernel settings` };
  return { risk: 'read', reason: `\`${name}\` only prints`, inert: true, concerns: unknownOptions(parsed, name) };
};

const disk: Judge = (args, _context, name) =>
  hasOption(parseArgs(args), '-l', '--list') ? { risk: 'read', reason: `\`${name} -l\` only lists`, inert: true } : { risk: 'write', reason: `\`${name}\` changes disk partitions` };

/** Commands that change the machine rather than files (processes, services, users, disks). */
export const systemSpecs: Record<string, Judge> = {
  kill: changes('signals processes'),
  pkill: changes('signals processes'),
  killall: changes('signals processes'),
  killall5: changes('signals every process'),
  shutdown: changes('shuts the machine down'),
  reboot: changes('restarts the machine'),
  halt: changes('stops the machine'),
  poweroff: changes('powers the machine off'),
  init: changes('changes the run level'),
  telinit: changes('changes the run level'),
  systemctl,
  service: changes('controls system services'),
  launchctl: changes('controls system services'),
  crontab,
  at: changes('schedules commands'),
  batch: changes('schedules commands'),
  mkfs: changes('formats a disk'),
  mke2fs: changes('formats a disk'),
  mkswap: changes('formats a disk'),
  wipefs: changes('erases disk signatures'),
  fdisk: disk,
  sfdisk: disk,
  parted: disk,
  gdisk: disk,
  sgdisk: disk,
  mount: changes('mounts file systems'),
  umount: changes('unmounts file systems'),
  swapon: changes('changes swap'),
  swapoff: changes('changes swap'),
  sysctl,
  modprobe: changes('loads kernel modules'),
  insmod: changes('loads kernel modules'),
  rmmod: changes('unloads kernel modules'),
  iptables: changes('changes the firewall'),
  ufw: changes('changes the firewall'),
  useradd: changes('changes user accounts'),
  userdel: changes('changes user accounts'),
  usermod: changes('changes user accounts'),
  groupadd: changes('changes user accounts'),
  passwd: changes('changes passwords'),
  chpasswd: changes('changes passwords'),
  chsh: changes('changes login shells'),
  visudo: changes('changes sudo rules'),
  defaults: changes('changes macOS settings'),
  diskutil: changes('changes disks'),
  csrutil: changes('changes system integrity protection'),
  nvram: changes('changes firmware settings'),
  pbcopy: changes('replaces the clipboard'),
  xclip: changes('replaces the clipboard'),
  pbpaste: (_args, _context, name) => ({ risk: 'read', reason: `\`${name}\` only prints`, inert: true }),
  open: (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` opens files with other programs` }),
  'xdg-open': (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` opens files with other programs` }),
};
