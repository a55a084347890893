import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { Parser, Language } = await import('web-tree-sitter');
await Parser.init();
const Bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
const p = new Parser(); p.setLanguage(Bash);
function dump(n, d=0){ let s='  '.repeat(d)+(n.isNamed? n.type : JSON.stringify(n.type)); const f=[]; for(let i=0;i<n.childCount;i++){} console.log(s + (n.childCount? '' : ' '+JSON.stringify(n.text))); for (let i=0;i<n.childCount;i++){ const c=n.child(i); const fn=n.fieldNameForChild(i); if(fn) console.log('  '.repeat(d+1)+'@'+fn); dump(c,d+1);} }
for (const src of process.argv.slice(2)) { const t=p.parse(src); console.log('=== '+JSON.stringify(src)); dump(t.rootNode); t.delete(); }
