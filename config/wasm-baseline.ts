/**
 * WebAssembly compiled by V8's baseline compiler (Liftoff) only. Otherwise TurboFan re-compiles a
 * large module in the background (the bash grammar: ~0.5 s of CPU and ~45 MiB; undici's HTTP parser
 * behind Node's fetch: ~0.1 s and ~30 MiB) and the process waits for it at exit.
 *
 * The flag is set just before the first WebAssembly compile, not at start: a V8 flag change makes
 * every code cache made under the old flags unusable, Node's own included, so each built-in module
 * and worker thread loaded after it compiles from source (measured on Node 20: a pool thread's start
 * ~37 -> ~110 ms of CPU; http, crypto and child_process ~5 -> ~12 ms). A run that never compiles
 * WebAssembly (no shell command needs the grammar, no fetch) keeps them all.
 */
const COMPILERS = ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming'] as const;
let installed = false;
let flagSet = false;

/**
 * Wraps this thread's WebAssembly compile functions (and the Module constructor) so that the first
 * one called sets `--liftoff-only` for the process. `beforeFlagChange` runs once just before: the
 * code cache writes what it holds while V8 still accepts it.
 */
export function keepWasmOnBaseline(beforeFlagChange?: () => void): void {
  const wasm = (globalThis as { WebAssembly?: Record<string, unknown> }).WebAssembly;
  if (installed || !wasm) return;
  installed = true;
  const baseline = () => {
    if (flagSet) return;
    flagSet = true;
    beforeFlagChange?.();
    process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  };
  for (const name of COMPILERS) {
    const original = wasm[name];
    if (typeof original !== 'function') continue;
    // Named as the original, so a stack trace or a check of `.name` sees no difference.
    wasm[name] = {
      [name](this: unknown, ...args: unknown[]) {
        baseline();
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      },
    }[name];
  }
  const Module = wasm.Module;
  if (typeof Module === 'function')
    // A proxy, not a subclass: `instanceof WebAssembly.Module` and the prototype stay the engine's.
    wasm.Module = new Proxy(Module, {
      construct(target, args, newTarget) {
        baseline();
        return Reflect.construct(target, args, newTarget) as object;
      },
    });
}
