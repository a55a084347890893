// Build step helper (config/bundle-runtime.mjs): which lazily imported code leaves runtime.cjs for a
// file of its own. A run deserializes the whole code cache of every file it loads, and a task's
// cache of runtime.cjs held the permission engine's shell analysis (~174 KB of source, run by every
// task), so each one-shot answer after a task paid ~4 ms to deserialize code it never ran. Code
// behind `import('./x.js')` that nothing imports statically is such code: it goes to a part,
// `runtime-<plugin>.cjs`, with its own code cache, loaded on that first import.

/** A part smaller than this stays in runtime.cjs: a file of its own costs more to open than its code costs to carry. */
export const MIN_PART_BYTES = 16 * 1024;

// A plugin's code is its part; config's files (the test kit, the SDK) are each a part.
const partName = (input) => {
  const [top, name] = input.replace(/^dist\//, '').split('/');
  return top === 'plugins' ? name : top === 'config' ? name.replace(/\.js$/, '') : top;
};

/**
 * Plans the split from the ES module graph.
 * - `inputs`: each input's static imports, `dynamic`: its relative `import()` targets (both
 *   package-relative, `dist/...`), `bytes`: each input's size, `roots`: the entries.
 * - `late`: entries no start loads (the tools' modules, which the main thread runs only for a tool
 *   call; the test kit and the SDK, for other programs): each is split off as if imported lazily.
 * Returns `main` (what runtime.cjs holds), `parts` (name → its targets and modules; each module in
 * exactly one part, none in main) and `exposed` (main modules a part imports: runtime.cjs gives
 * each a getter, so a part uses the one running copy, never a second).
 * A module two parts reach goes to main, and so does a part below MIN_PART_BYTES.
 */
export function planParts({ inputs, dynamic, bytes, roots, late = [] }) {
  const kept = new Set(); // lazily imported modules kept in main
  for (;;) {
    const main = closure([...roots, ...kept], inputs);
    const parts = new Map();
    const owner = new Map();
    let changed = false;
    const pending = [...main];
    const queued = new Set(pending);
    const lateTargets = late.filter((entry) => !kept.has(entry));
    while (pending.length || lateTargets.length) {
      const targets = lateTargets.length ? lateTargets.splice(0) : (dynamic[pending.pop()] ?? []);
      for (const target of targets) {
        if (main.has(target)) continue;
        // A module of a part already is that part's, whichever part's code imports it.
        const name = owner.get(target) ?? partName(target);
        if (!parts.has(name)) parts.set(name, { targets: new Set(), modules: new Set() });
        const part = parts.get(name);
        part.targets.add(target);
        for (const module of closure([target], inputs)) {
          // Packages are not split: a bundled one (picomatch, ignore) is copied into each file that imports it.
          if (main.has(module) || !module.startsWith('dist/')) continue;
          const other = owner.get(module);
          if (other !== undefined && other !== name) {
            kept.add(module);
            changed = true;
          }
          owner.set(module, name);
          part.modules.add(module);
          if (!queued.has(module)) {
            queued.add(module);
            pending.push(module);
          }
        }
      }
    }
    for (const part of parts.values()) {
      const size = [...part.modules].reduce((sum, module) => sum + (bytes[module] ?? 0), 0);
      if (size < MIN_PART_BYTES) {
        for (const target of part.targets) kept.add(target);
        changed = true;
      }
    }
    if (changed) continue;
    const exposed = new Set();
    for (const part of parts.values())
      for (const module of part.modules) for (const imported of [...(inputs[module] ?? []), ...(dynamic[module] ?? [])]) if (main.has(imported) && imported.startsWith('dist/')) exposed.add(imported);
    return { main, parts, exposed };
  }
}

/** Everything `roots` load by static imports, themselves included. */
function closure(roots, inputs) {
  const seen = new Set();
  const pending = [...roots];
  while (pending.length) {
    const input = pending.pop();
    if (seen.has(input)) continue;
    seen.add(input);
    pending.push(...(inputs[input] ?? []));
  }
  return seen;
}
