// Runs before every test file (vitest setupFiles): in-process kernels read the user's directories
// from the environment, so each file gets a temp home. No test reads the developer's own config or
// leaves sessions, audit logs or locks in their data directory.
import { tempDir, userDirsUnder } from './project.js';

Object.assign(process.env, userDirsUnder(tempDir('assistant-home-')));

// A developer's own OpenTelemetry settings would send every test run's metrics to their collector.
for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
