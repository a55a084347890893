// `assistant doctor` judges the running Node by the same range package.json's engines states:
// require() of an ES module (which the UI uses for string-width) is there from 20.19 and 22.12.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeOk } from '../../dist/plugins/diagnostics/doctor.js';

const engines = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }).engines.node;

describe('the Node versions doctor accepts', () => {
  it('are the ones engines names', () => {
    expect(engines).toBe('^20.19.0 || >=22.12.0');
    const accepted = ['v20.19.0', 'v20.20.2', 'v22.12.0', 'v22.23.3', 'v23.0.0', 'v24.11.1'];
    const refused = ['v18.20.4', 'v20.18.3', 'v21.7.3', 'v22.0.0', 'v22.11.0'];
    expect(accepted.filter((version) => !nodeOk(version))).toEqual([]);
    expect(refused.filter((version) => nodeOk(version))).toEqual([]);
  });
});
