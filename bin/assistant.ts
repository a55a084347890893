#!/usr/bin/env node
// The CLI's former entry, kept for scripts that still run it: the entry is assistant.cjs (package.json `bin`).
import './assistant.cjs';
