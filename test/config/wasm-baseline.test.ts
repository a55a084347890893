// WebAssembly on V8's baseline compiler, the flag set at the first compile and not before
// (config/wasm-baseline.ts). V8 flags are per process: each case runs in a Node of its own.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const MODULE = new URL('../../dist/config/wasm-baseline.js', import.meta.url).href;
// (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
const ADD_WASM = [0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 97, 100, 100, 0, 0, 10, 9, 1, 7, 0, 32, 0, 32, 1, 106, 11];

/** Runs `body` after the hook is installed; it logs with `note(...)`; returns the notes. */
function inChild(body: string): unknown[] {
  const script = `
    import { cachedDataVersionTag } from 'node:v8';
    import { keepWasmOnBaseline } from ${JSON.stringify(MODULE)};
    const notes = [];
    const note = (...values) => notes.push(values);
    const startTag = cachedDataVersionTag();
    const flagsChanged = () => cachedDataVersionTag() !== startTag;
    keepWasmOnBaseline(() => note('before', flagsChanged()));
    const bytes = new Uint8Array(${JSON.stringify(ADD_WASM)});
    ${body}
    console.log(JSON.stringify(notes));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as unknown[];
}

describe('WebAssembly on the baseline compiler', () => {
  it('leaves V8 flags alone until something compiles WebAssembly', () => {
    expect(inChild(`note('changed', flagsChanged());`)).toEqual([['changed', false]]);
  });

  it('sets the flag at the first compile, after the callback, once', () => {
    const notes = inChild(`
      const module = new WebAssembly.Module(bytes);
      note('module', flagsChanged(), module instanceof WebAssembly.Module, new WebAssembly.Instance(module).exports.add(2, 3));
      const compiled = await WebAssembly.compile(bytes);
      note('compile', compiled instanceof WebAssembly.Module);
    `);
    expect(notes).toEqual([
      ['before', false],
      ['module', true, true, 5],
      ['compile', true],
    ]);
  });

  it('sets it from each way of compiling, and the result is what the engine would give', () => {
    for (const call of [
      `const { instance } = await WebAssembly.instantiate(bytes); note('add', instance.exports.add(20, 22));`,
      `const module = await WebAssembly.compile(bytes); note('add', (await WebAssembly.instantiate(module)).exports.add(1, 1));`,
      `note('add', new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.add(0, 7));`,
    ]) {
      const notes = inChild(`${call} note('changed', flagsChanged(), WebAssembly.compile.name, WebAssembly.Module.name);`);
      expect(notes[0]).toEqual(['before', false]);
      expect(notes[2]).toEqual(['changed', true, 'compile', 'Module']);
    }
  });
});
