// Diagnostic: how long each module takes to import, in order, in one process
// (`node bench/lib/import-times.mjs ajv ./../../dist/core/kernel.js`). Used to find start-up cost.
const modules = process.argv.slice(2);
for (const name of modules) {
  const started = performance.now();
  await import(name);
  console.log((performance.now() - started).toFixed(1).padStart(7), name);
}
