// The public API is what plugin authors get: the package entry points, fully documented, and enough
// that nothing (not even a built-in) needs an internal path.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { types: string; default: string } | string>;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

function filesUnder(dir: string, ending: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ending))
    .map((f) => join(dir, f));
}

/** Exported names (and members of exported interfaces, classes and object types) without TSDoc, in a declaration entry point. */
function undocumented(entry: string): string[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
  const checker = program.getTypeChecker();
  const missing: string[] = [];
  const seen = new Set<ts.Node>();
  const documented = (node: ts.Node) => ts.getJSDocCommentsAndTags(node).length > 0;
  const members = (owner: string, list: ts.NodeArray<ts.TypeElement | ts.ClassElement>) => {
    for (const member of list) {
      if (!member.name || ts.isConstructorDeclaration(member)) continue;
      if (ts.getCombinedModifierFlags(member as ts.Declaration) & ts.ModifierFlags.Private) continue;
      if (!documented(member)) missing.push(`${owner}.${member.name.getText()}`);
    }
  };
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    for (const declaration of symbol.declarations ?? []) {
      if (seen.has(declaration)) continue;
      seen.add(declaration);
      const where = relative(join(ROOT, 'dist'), declaration.getSourceFile().fileName);
      if (!documented(ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration)) missing.push(`${exported.name} (${where})`);
      if (ts.isInterfaceDeclaration(declaration) || ts.isClassDeclaration(declaration)) members(exported.name, declaration.members);
      if (ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type)) members(exported.name, declaration.type.members);
    }
  }
  return missing;
}

/** How a compiled module loads a package: import/export from, import(), require() and createRequire(...)(), require.resolve(). */
const LOADS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\w*\(\s*|\)\(\s*|\.resolve\(\s*)['"]((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w.-]+)*)['"]/g;

/** Bare package names a module loads, without subpaths. */
function importedPackages(source: string): string[] {
  const specifiers = [...source.matchAll(LOADS)].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('node:') && !builtinModules.includes(s.split('/')[0]!))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

const KITS = ['agent', 'context', 'fs', 'metrics', 'provider', 'store', 'tool', 'trust'];
/** The entry points, as paths under dist/ without the extension. */
const ENTRIES = ['core/index', 'config/test-kit', 'config/sdk', ...KITS.map((kit) => `core/kits/${kit}/index`)];

/** The values of the main entry, pinned: adding one is a decision (most helpers belong in a kit). */
const MAIN_VALUES = [
  'AssistantError', 'ConfigError', 'ContextError', 'GENERIC_ALLOW_HINT', 'allowHint', 'declaredPaths', 'ERROR_CODES', 'KERNEL_API_VERSION', 'LOCK_EVERYTHING',
  'MCP_SERVER_NAME', 'PACKAGE_NAME', 'PROJECT_CONFIG_FILES', 'PermissionError', 'PluginError', 'ProviderError', 'SessionError', 'Stage',
  'TOOL_NAME', 'ToolError', 'addUsage', 'compileSchema', 'createControlFiles', 'createKernel', 'currentOwner',
  'decidePermission', 'defineErrorCodes', 'definePlugin', 'describeSchemaErrors', 'displayPath', 'emptyUsage', 'errorResult', 'escapeDeceptive', 'formatError',
  'hasDeceptiveChars', 'isAssistantError', 'isInside', 'lazyImport', 'locksConflict', 'messageText', 'parseMcpToolName', 'permissionRequestFor',
  'projectDataDir', 'projectHash', 'realPath', 'resolveApprovals', 'resolveToolPath', 'resourcesOverlap', 'schemaProblems',
  'sourceFor', 'stableJson', 'textResult', 'userDirs',
].sort();

describe('the public API', () => {
  it('has a main entry, one subpath per kit and one for the test kit, each with its declarations', () => {
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './kits/agent', './kits/context', './kits/fs', './kits/metrics', './kits/provider', './kits/store', './kits/tool', './kits/trust', './package.json', './sdk', './testing']);
    // Code from the build's bundle (one copy shared with the running CLI), types from tsc's tree.
    expect(pkg.exports['.']).toEqual({ types: './dist/core/index.d.ts', default: './dist/bundle/core~index.js' });
    expect(pkg.exports['./testing']).toEqual({ types: './dist/config/test-kit.d.ts', default: './dist/bundle/config~test-kit.js' });
    expect(pkg.exports['./sdk']).toEqual({ types: './dist/config/sdk.d.ts', default: './dist/bundle/config~sdk.js' });
    for (const kit of KITS) expect(pkg.exports[`./kits/${kit}`]).toEqual({ types: `./dist/core/kits/${kit}/index.d.ts`, default: `./dist/bundle/core~kits~${kit}~index.js` });
  });

  it.each(ENTRIES.map((entry) => `dist/${entry}.d.ts`))('documents every export of %s and every member of its types', (entry) => {
    expect(undocumented(join(ROOT, entry))).toEqual([]);
  });

  it('keeps the main entry small: what every plugin needs, and createKernel', async () => {
    const main = await import(join(ROOT, 'dist/core/index.js'));
    expect(Object.keys(main).sort()).toEqual(MAIN_VALUES);
    expect(MAIN_VALUES.length).toBeLessThanOrEqual(60);
  });

  it('lets built-in plugins reach the core only through the public entry points', () => {
    const publicEntries = new Set(ENTRIES.map((entry) => join(ROOT, `${entry}.js`)));
    const offenders = filesUnder('plugins', '.ts').flatMap((file) => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      return [...source.matchAll(/from\s*'([^']+)'/g)]
        .map((m) => m[1]!)
        .filter((spec) => spec.startsWith('.') && resolve(ROOT, dirname(file), spec).startsWith(join(ROOT, 'core')))
        .filter((spec) => !publicEntries.has(resolve(ROOT, dirname(file), spec)))
        .map((spec) => `${file}: ${spec}`);
    });
    expect(offenders).toEqual([]);
  });

  it('lets the example plugins import only the package entry points', () => {
    const offenders = filesUnder('examples', '.ts')
      .filter((file) => !file.includes('node_modules') && !file.includes('/dist/'))
      .flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/from\s*'((?:@assistant-cli\/)?assistant[^']*)'/g)].map((m) => `${file}: ${m[1]}`))
      .filter((line) => !/: @assistant-cli\/assistant(\/testing|\/sdk|\/kits\/[a-z]+)?$/.test(line));
    expect(offenders).toEqual([]);
  });

  it('lists every package the build imports as a dependency', () => {
    // The bundles are built from tsc's tree; their minified text is no source to read imports from. The
    // runtime bundle's own external imports come from the build's record of it (dist/bundle/shape.json).
    const generated = (file: string) => file.startsWith('dist/bundle/') || file.startsWith('dist/vendor/');
    const imported = new Set(filesUnder('dist', '.js').filter((file) => !generated(file)).flatMap((file) => importedPackages(readFileSync(join(ROOT, file), 'utf8'))));
    const shape = JSON.parse(readFileSync(join(ROOT, 'dist/bundle/shape.json'), 'utf8')) as { externals: string[] };
    const bundleExternals = shape.externals;
    expect(bundleExternals.length).toBeGreaterThan(10);
    for (const name of importedPackages(bundleExternals.map((path) => `from '${path}'`).join('\n'))) imported.add(name);
    // An optional peer (vitest, for the test kit's conformance suite) is loaded only where installed.
    const optionalPeer = (name: string) => Boolean(pkg.peerDependencies?.[name] && pkg.peerDependenciesMeta?.[name]?.optional);
    expect([...imported].filter((name) => !(name in pkg.dependencies) && !optionalPeer(name)).sort()).toEqual([]);
    // And the list is not padded: every dependency is used by the build.
    expect(Object.keys(pkg.dependencies).filter((name) => !imported.has(name))).toEqual([]);
  });
});
