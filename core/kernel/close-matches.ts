/** Edit distance between two strings (case-insensitive). */
export function editDistance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** The candidates closest to `name` (at most 3, within a distance that makes them plausible typos). */
export function closeMatches(name: string, candidates: Iterable<string>): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return [...candidates]
    .map((c) => ({ c, d: c.toLowerCase().includes(name.toLowerCase()) && name.length >= 3 ? 1 : editDistance(name, c) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, 3)
    .map((x) => x.c);
}

/** " (did you mean a, b?)" or "". */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const m = closeMatches(name, candidates);
  return m.length ? ` (did you mean ${m.map((x) => `"${x}"`).join(', ')}?)` : '';
}

/** Edit distance, case-insensitive, where swapping two neighbours counts as one edit (`trsut`): the typos hands make. */
export function typoDistance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}
