import type { Logger } from '../../dist/core/index.js';

/** A logger that drops everything: the conformance suite asserts on what stores return, not on their logs. */
export const silentLogger: Logger = {
  name: 'test',
  level: 'silent',
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
  isEnabled: () => false,
};
