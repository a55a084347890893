import { resolve } from 'node:path';
import { definePlugin, userDirs, type SessionStore } from '../../core/index.js';
import { createJsonlStore } from './store.js';

interface Options {
  /** Data root instead of the user's data directory (`$ASSISTANT_DATA_DIR`, `$XDG_DATA_HOME/assistant`). */
  dir?: string;
}

/**
 * The default session store (`persistence.store: jsonl`): embedded, zero set-up, one append-only
 * JSONL file per session. Inert unless selected: nothing is opened until the kernel asks for it.
 */
export default definePlugin<Options>({
  name: 'store-jsonl',
  version: '1.0.0',
  configKey: 'persistence.jsonl',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { dir: { type: 'string', minLength: 1 } },
  },
  apply(kernel, options, { logger }) {
    let store: SessionStore | undefined;
    const root = options.dir ? resolve(kernel.projectRoot, options.dir) : userDirs().data;
    kernel.hooks.sessionStore.for('jsonl').tap('store-jsonl', () => (store ??= createJsonlStore(root, logger)));
  },
});
