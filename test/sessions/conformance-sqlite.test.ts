import { join } from 'node:path';
import { describeSessionStore } from '@assistant-cli/assistant/testing';
import { tempDir } from '../support/project.js';
import { createSqliteStore } from './fixtures/sqlite-store.js';

// A third-party store written from docs/sessions.md alone, held to the same contract as the
// built-ins. Its appends are transactions, which cannot tear: the crash case is skipped.
const base = tempDir('assistant-conformance-sqlite-');

describeSessionStore('sqlite (written from the docs)', ({ scope, owner }) => createSqliteStore(join(base, `${scope}.db`), owner));
