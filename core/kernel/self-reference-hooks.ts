// Module resolution hooks (run by node:module's `register`): the package's own name and its subpaths,
// imported by a plugin, resolve to the copy of assistant that is running. A plugin written against the
// public API then works from a global install (where the project has no copy in node_modules), and a
// project that does have its own copy still shares one kernel with its plugins, so `instanceof
// AssistantError` and the kernel's types hold across them.

type Resolve = (specifier: string, context: { parentURL?: string }) => Promise<unknown> | unknown;

let selfUrl: string | undefined;
let packageName: string | undefined;

/** Receives the package's name and the URL of a file inside it (its self-reference resolves from there). */
export function initialize(data: { selfUrl: string; packageName: string }): void {
  selfUrl = data.selfUrl;
  packageName = data.packageName;
}

/** Redirects the package's own name to the running copy; every other specifier resolves as usual. */
export function resolve(specifier: string, context: { parentURL?: string }, nextResolve: Resolve): unknown {
  if (selfUrl && packageName && (specifier === packageName || specifier.startsWith(`${packageName}/`)))
    return nextResolve(specifier, { ...context, parentURL: selfUrl });
  return nextResolve(specifier, context);
}
