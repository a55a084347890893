/** Just enough semver to check a plugin's `kernelApi` range: `^1.2.3`, `~1.2`, `>=1.0.0 <2`, `1.x`, `*`, `a || b`. */
type Version = [number, number, number];

function parse(version: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(version.trim());
  if (!m) return undefined;
  const n = (s: string | undefined) => (s === undefined || s === 'x' || s === '*' ? 0 : Number(s));
  return [Number(m[1]), n(m[2]), n(m[3])];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function satisfiesComparator(v: Version, comparator: string): boolean {
  const c = comparator.trim();
  if (c === '' || c === '*' || c === 'x') return true;
  const op = /^(\^|~|>=|<=|>|<|=)?\s*(.*)$/.exec(c)!;
  const target = parse(op[2]!);
  if (!target) return false;
  const parts = op[2]!.split('.').filter((p) => p !== 'x' && p !== '*').length;
  switch (op[1]) {
    case '^': {
      const upper: Version = target[0] > 0 ? [target[0] + 1, 0, 0] : target[1] > 0 ? [0, target[1] + 1, 0] : [0, 0, target[2] + 1];
      return compare(v, target) >= 0 && compare(v, upper) < 0;
    }
    case '~': {
      const upper: Version = parts <= 1 ? [target[0] + 1, 0, 0] : [target[0], target[1] + 1, 0];
      return compare(v, target) >= 0 && compare(v, upper) < 0;
    }
    case '>=': return compare(v, target) >= 0;
    case '<=': return compare(v, target) <= 0;
    case '>': return compare(v, target) > 0;
    case '<': return compare(v, target) < 0;
    default: {
      if (parts === 1) return v[0] === target[0];
      if (parts === 2) return v[0] === target[0] && v[1] === target[1];
      return compare(v, target) === 0;
    }
  }
}

/** True when `version` satisfies `range`. An unparseable range is never satisfied. */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  if (!v) return false;
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => satisfiesComparator(v, comparator)),
  );
}
