// Bundles the web UI of `assistant serve` (preact, htm, marked, DOMPurify) into one script beside
// the compiled plugin: dist/plugins/surface-serve/web/app.js. Run by `npm run build`.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here('../../../dist/plugins/surface-serve/web/');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [here('./main.ts')],
  outfile: `${out}app.js`,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css']) copyFileSync(here(`./${file}`), `${out}${file}`);
