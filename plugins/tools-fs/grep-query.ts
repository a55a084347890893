/** A Grep call, resolved: what both backends (ripgrep and the built-in scanner) search for. */
export interface GrepQuery {
  pattern: string;
  /** Absolute folder or file to search. */
  root: string;
  projectRoot: string;
  ignoreCase: boolean;
  mode: 'content' | 'files_with_matches' | 'count';
  lineNumbers: boolean;
  before: number;
  after: number;
  /** `--glob` filters as given (`!` excludes). */
  globs: string[];
  /** File-name globs of the `type` filter. */
  typeGlobs: string[];
  headLimit?: number;
}

/** A matched or context line. */
export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
}

/** One file's hits: its lines (content mode) and how many lines matched. */
export interface GrepFile {
  path: string;
  count: number;
  lines: GrepLine[];
}

/** The `type` filter's names, as ripgrep spells the common ones, with their file globs. */
export const FILE_TYPES: Readonly<Record<string, string[]>> = {
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs', '*.vue'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  py: ['*.py', '*.pyi'],
  rust: ['*.rs'],
  go: ['*.go'],
  java: ['*.java', '*.jsp', '*.properties'],
  kotlin: ['*.kt', '*.kts'],
  swift: ['*.swift'],
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  cpp: ['*.[ChH]', '*.cc', '*.[ch]pp', '*.[ch]xx', '*.hh', '*.inl'],
  cs: ['*.cs'],
  rb: ['*.rb', '*.gemspec', 'Gemfile', 'Rakefile'],
  ruby: ['*.rb', '*.gemspec', 'Gemfile', 'Rakefile'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.phtml'],
  sh: ['*.sh', '*.bash', '*.zsh', '.bashrc', '.zshrc', '.profile'],
  html: ['*.htm', '*.html', '*.ejs'],
  css: ['*.css', '*.scss', '*.sass', '*.less'],
  json: ['*.json', '*.jsonl', '*.json5'],
  yaml: ['*.yaml', '*.yml'],
  toml: ['*.toml', 'Cargo.lock'],
  xml: ['*.xml', '*.xsd', '*.xsl', '*.svg'],
  md: ['*.md', '*.markdown', '*.mdx'],
  markdown: ['*.md', '*.markdown', '*.mdx'],
  sql: ['*.sql'],
  lua: ['*.lua'],
  dart: ['*.dart'],
  elixir: ['*.ex', '*.exs', '*.eex', '*.heex'],
  scala: ['*.scala', '*.sbt'],
  svelte: ['*.svelte'],
  docker: ['*Dockerfile*'],
  make: ['[Gg][Nn][Uu]makefile', '[Mm]akefile', '*.mk', '*.mak'],
};

/** `a.{js,ts}` → `a.js`, `a.ts` (nested braces too), so gitignore-style matchers understand them. */
export function expandBraces(glob: string): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{' && depth++ === 0) open = i;
    else if (c === '}' && depth > 0 && --depth === 0) {
      const inner = glob.slice(open + 1, i);
      const options: string[] = [];
      let level = 0;
      let from = 0;
      for (let j = 0; j < inner.length; j++) {
        if (inner[j] === '{') level++;
        else if (inner[j] === '}') level--;
        else if (inner[j] === ',' && level === 0) {
          options.push(inner.slice(from, j));
          from = j + 1;
        }
      }
      options.push(inner.slice(from));
      if (options.length < 2) continue;
      const head = glob.slice(0, open);
      const tail = glob.slice(i + 1);
      return options.flatMap((o) => expandBraces(head + o + tail));
    }
  }
  return [glob];
}
