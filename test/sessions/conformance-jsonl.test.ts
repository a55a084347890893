import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeSessionStore } from '@assistant-cli/assistant/testing';
import { projectDataDir } from '@assistant-cli/assistant';
import { createJsonlStore } from '../../dist/plugins/store-jsonl/store.js';
import { tempDir } from '../support/project.js';
import { silentLogger } from './silent-logger.js';

// The built-in JSONL store against the SessionStore contract; each test gets its own data root.
const base = tempDir('assistant-conformance-jsonl-');
const root = (scope: string) => join(base, scope);

describeSessionStore('jsonl', ({ scope, owner }) => createJsonlStore(root(scope), silentLogger, owner), {
  // A process killed mid-write leaves the start of a line and no newline.
  tearLastRecord({ scope, sessionId, projectRoot }) {
    const file = join(projectDataDir(projectRoot, { ASSISTANT_DATA_DIR: root(scope) }), 'sessions', `${sessionId}.jsonl`);
    appendFileSync(file, '{"t":1,"e":{"type":"message","message":{"role":"user","cont');
  },
});
