/**
 * Reads a sed script far enough to prove it only prints: every command is one of the known
 * printing/editing ones, and no `s` command has the `w` or `e` flag. `w`, `W`, `r`, `R`, `e`, an
 * unknown command or anything this reader does not follow makes it unproven (fail closed).
 */
const PLAIN = new Set(['p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'l', '=', 'z', 'F']);
/** Commands that take an optional label or exit code up to the end of the command. */
const WITH_ARGUMENT = new Set(['b', 't', 'T', 'q', 'Q', 'L']);
const TEXT = new Set(['a', 'i', 'c']);
const S_FLAGS = /^[gpiImM0-9]$/;

/** Why the script is not proven to only print, or undefined when it is. */
export function unsafeSedScript(script: string): string | undefined {
  let i = 0;
  const n = script.length;
  const skipBlanks = () => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  /** Reads a delimited part (regex or replacement) and returns false when it never ends. */
  const delimited = (delimiter: string): boolean => {
    let inClass = false;
    for (; i < n; i++) {
      const c = script[i]!;
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '\n' && !inClass) return false;
      if (c === delimiter) {
        i++;
        return true;
      }
    }
    return false;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < n && /[\d~]/.test(script[i]!)) i++;
      return true;
    }
    if (c === '$') {
      i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      const delimiter = c === '\\' ? script[++i] : '/';
      if (delimiter === undefined) return false;
      i++;
      if (!delimited(delimiter)) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
    }
    return true;
  };
  while (true) {
    skipBlanks();
    if (i >= n) return undefined;
    if (script[i] === '#') {
      while (i < n && script[i] !== '\n') i++;
      continue;
    }
    if (script[i] === '}') {
      i++;
      continue;
    }
    if (!address()) return 'an address is not understood';
    if (script[i] === ',') {
      i++;
      if (script[i] === '+' || script[i] === '~') i++;
      if (!address()) return 'an address is not understood';
    }
    while (i < n && /[\s!]/.test(script[i]!) && script[i] !== '\n') i++;
    const command = script[i++];
    if (command === undefined) return 'an address has no command';
    if (command === '{') continue;
    if (PLAIN.has(command)) continue;
    if (command === ':') {
      while (i < n && script[i] !== '\n' && script[i] !== ';') i++;
      continue;
    }
    if (WITH_ARGUMENT.has(command)) {
      while (i < n && !/[\n;}]/.test(script[i]!)) i++;
      continue;
    }
    if (TEXT.has(command)) {
      // GNU one-liner text runs to the end of the line; a backslash-newline continues it.
      while (i < n && script[i] !== '\n') i += script[i] === '\\' ? 2 : 1;
      continue;
    }
    if (command === 's' || command === 'y') {
      const delimiter = script[i++];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return `the \`${command}\` command is not understood`;
      if (!delimited(delimiter) || !delimited(delimiter)) return `the \`${command}\` command is not understood`;
      if (command === 'y') continue;
      while (i < n && !/[\s;}#]/.test(script[i]!)) {
        const flag = script[i++]!;
        if (flag === 'w' || flag === 'e') return `the \`s\` command's \`${flag}\` flag ${flag === 'w' ? 'writes a file' : 'runs the result as a command'}`;
        if (!S_FLAGS.test(flag)) return `the \`s\` flag \`${flag}\` is not understood`;
      }
      continue;
    }
    if (command === 'w' || command === 'W') return `the \`${command}\` command writes a file`;
    if (command === 'r' || command === 'R') return `the \`${command}\` command reads a file into the output`;
    if (command === 'e') return 'the `e` command runs a command';
    return `the sed command \`${command}\` is not understood`;
  }
}
