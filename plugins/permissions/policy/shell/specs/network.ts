import { hasOption, optionValues, parseArgs } from '../argv.js';
import type { Judge } from '../spec.js';
import type { Arg } from '../types.js';
import { literal } from '../words.js';

/** `@file` / `name=@file` / `name=<file` operands of curl's data options name files it uploads. */
function uploadedFile(arg: Arg): Arg | undefined {
  const text = arg.value;
  if (text === null) return undefined;
  const at = text.search(/(^|=)[@<]/);
  if (at < 0) return undefined;
  const start = text[at] === '=' ? at + 2 : at + 1;
  const file = text.slice(start).split(';')[0]!;
  return file && file !== '-' ? literal(file) : undefined;
}

const CURL_VALUES = [
  '-d', '--data', '--data-binary', '--data-ascii', '--data-urlencode', '--data-raw', '--json', '-F', '--form', '--form-string',
  '-T', '--upload-file', '-K', '--config', '--cert', '-E', '--key', '--cacert', '--capath', '-b', '--cookie', '-c', '--cookie-jar',
  '-o', '--output', '--output-dir', '-D', '--dump-header', '--trace', '--trace-ascii', '--libcurl', '--stderr', '--etag-save',
  '--etag-compare', '--netrc-file', '-H', '--header', '-X', '--request', '-u', '--user', '-A', '--user-agent', '-e', '--referer',
  '-m', '--max-time', '--connect-timeout', '--retry', '-w', '--write-out', '-x', '--proxy', '--resolve', '--connect-to',
  '-r', '--range', '-z', '--time-cond', '--url', '--hsts', '--alt-svc', '-Q', '--quote', '--unix-socket', '--interface',
];

const curl: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, { values: CURL_VALUES });
  const uploads = optionValues(parsed, '-d', '--data', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '-F', '--form')
    .map(uploadedFile)
    .filter((a): a is Arg => !!a);
  const reads = [...uploads, ...optionValues(parsed, '-T', '--upload-file', '-K', '--config', '--cert', '-E', '--key', '--netrc-file', '--etag-compare')];
  const cookieFiles = optionValues(parsed, '-b', '--cookie').filter((a) => a.value !== null && !a.value.includes('='));
  const writes = optionValues(parsed, '-o', '--output', '-c', '--cookie-jar', '-D', '--dump-header', '--trace', '--trace-ascii', '--libcurl', '--stderr', '--etag-save').filter((a) => a.value !== '-');
  const remoteName = hasOption(parsed, '-O', '--remote-name', '--remote-name-all', '-J', '--remote-header-name');
  const dirs = optionValues(parsed, '--output-dir');
  return {
    risk: 'network',
    reason: `\`${name}\` reaches the network`,
    reads: [...reads, ...cookieFiles],
    writes: [...writes, ...(remoteName ? (dirs.length ? dirs : [literal('.')]) : [])],
    writesUnknown: remoteName,
  };
};

const wget: Judge = (args, _context, name) => {
  const parsed = parseArgs(args, {
    values: ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix', '-i', '--input-file', '--post-file', '--body-file', '--load-cookies', '--save-cookies', '--certificate', '--private-key', '--config', '-U', '--user-agent', '--header', '-t', '--tries', '-T', '--timeout', '-e', '--execute', '--method', '--body-data', '--post-data', '--user', '--password', '-Q', '--quota', '-l', '--level', '-A', '--accept', '-R', '--reject', '-D', '--domains', '-w', '--wait', '--limit-rate', '-B', '--base'],
  });
  const documents = optionValues(parsed, '-O', '--output-document');
  const toStdout = documents.some((a) => a.value === '-');
  const writes = [...documents.filter((a) => a.value !== '-'), ...optionValues(parsed, '-o', '--output-file', '-a', '--append-output', '--save-cookies')];
  const dir = optionValues(parsed, '-P', '--directory-prefix');
  return {
    risk: 'network',
    reason: `\`${name}\` reaches the network`,
    reads: optionValues(parsed, '-i', '--input-file', '--post-file', '--body-file', '--load-cookies', '--certificate', '--private-key', '--config'),
    writes: [...writes, ...(documents.length ? [] : dir.length ? dir : toStdout ? [] : [literal('.')])],
    writesUnknown: !documents.length,
  };
};

/** scp/rsync/sftp: operands without `host:` are local files; the last one is the destination. */
function transfer(values: string[]): Judge {
  return (args, _context, name) => {
    const parsed = parseArgs(args, { values });
    const remote = (a: Arg) => a.value === null || /^[^/]*:/.test(a.value);
    const operands = parsed.operands;
    const destination = operands.length > 1 ? operands[operands.length - 1] : undefined;
    const sources = destination ? operands.slice(0, -1) : operands;
    const localSources = sources.filter((a) => !remote(a));
    const reads = localSources;
    const writes = destination && !remote(destination) ? [destination] : [];
    const readsIdentity = optionValues(parsed, '-F', '--files-from', '--exclude-from', '--include-from', '--password-file');
    if (!operands.some(remote) && name === 'rsync')
      return { risk: 'write', reason: '`rsync` copies files', recursiveReads: reads, writes, reads: readsIdentity };
    return { risk: 'network', reason: `\`${name}\` copies files over the network`, recursiveReads: reads, writes, reads: readsIdentity };
  };
}

const simple = (what: string): Judge => (_args, _context, name) => ({ risk: 'network', reason: `\`${name}\` ${what}` });

/** Commands that reach the network. */
export const networkSpecs: Record<string, Judge> = {
  curl,
  wget,
  wget2: wget,
  scp: transfer(['-i', '-F', '-o', '-P', '-c', '-l', '-S', '-J']),
  rsync: transfer(['-e', '--rsh', '--exclude', '--include', '--exclude-from', '--include-from', '--files-from', '--password-file', '--port', '--bwlimit', '--chmod', '--chown', '-f', '--filter', '-T', '--temp-dir', '--partial-dir', '--backup-dir', '--suffix', '--timeout', '--contimeout', '--log-file', '--rsync-path', '-B', '--block-size', '--max-size', '--min-size', '--compare-dest', '--copy-dest', '--link-dest']),
  sftp: simple('copies files over the network'),
  ssh: simple('connects to another machine'),
  mosh: simple('connects to another machine'),
  nc: simple('opens network connections'),
  ncat: simple('opens network connections'),
  netcat: simple('opens network connections'),
  socat: simple('opens network connections'),
  telnet: simple('opens network connections'),
  ftp: simple('transfers files over the network'),
  tftp: simple('transfers files over the network'),
  ping: simple('sends packets over the network'),
  ping6: simple('sends packets over the network'),
  dig: simple('queries DNS over the network'),
  nslookup: simple('queries DNS over the network'),
  host: simple('queries DNS over the network'),
  whois: simple('queries a server over the network'),
  traceroute: simple('sends packets over the network'),
  mtr: simple('sends packets over the network'),
  nmap: simple('scans the network'),
  http: simple('reaches the network'),
  https: simple('reaches the network'),
  xh: simple('reaches the network'),
  aria2c: simple('downloads files'),
  fetch: simple('downloads files'),
  lynx: simple('reaches the network'),
  w3m: simple('reaches the network'),
  links: simple('reaches the network'),
  elinks: simple('reaches the network'),
  openssl: simple('may reach the network or write keys'),
};

/** Commands that download content (for the `curl … | sh` hard block). */
export const DOWNLOADERS = new Set(['curl', 'wget', 'wget2', 'fetch', 'aria2c', 'http', 'https', 'xh', 'nc', 'ncat', 'netcat', 'socat', 'lynx', 'w3m', 'links', 'elinks', 'tftp', 'ftp']);
