import { createKernel } from '../../kernel/kernel.js';
import type { Kernel } from '../../kernel/kernel-types.js';
import type { LogLevel } from '../../kernel/logger.js';
import type { PreparedPlugin } from '../../kernel/plugin-loader.js';
import type { ResolvedConfig } from '../../types/config.js';

/** What a surface's kernel changes about the kernel the CLI booted. */
export interface SurfaceKernelOptions {
  /** The configuration to use instead of the booted kernel's (e.g. the same one minus a plugin). */
  config?: ResolvedConfig;
  /** Plugins only this kernel gets (an editor's file access, say). */
  extraPlugins?: PreparedPlugin[];
  /** The least severe level logged (default: the booted kernel's). */
  logLevel?: LogLevel;
  /** A misspelt provider, store or strategy stops the start (off for a surface that needs no model). */
  checkSelections?: boolean;
}

/**
 * The kernel for a surface that answers approvals itself (the web UI, an editor over ACP, an MCP
 * client, a script's callback), made from the configuration the CLI loaded. The CLI boots every
 * subcommand headless when stdin is not a terminal, and a headless kernel turns each `ask` into a
 * denial before anyone is asked; a surface's stdin is a protocol pipe (or unused), yet it has
 * someone to ask. This kernel is not headless: its `ask` decisions reach the `approval` hook,
 * where the surface taps (a session driver's `approve`), and one it leaves unanswered is denied.
 * One per session (todos, grants, mode and cost live on the kernel); its owner starts it and
 * shuts it down.
 */
export function kernelForSurface(booted: Kernel, options: SurfaceKernelOptions = {}): Promise<Kernel> {
  return createKernel({
    config: options.config ?? booted.resolvedConfig,
    headless: false,
    logLevel: options.logLevel ?? booted.logger.level,
    logFile: process.env.ASSISTANT_LOG_FILE,
    checkSelections: options.checkSelections ?? true,
    extraPlugins: options.extraPlugins,
  });
}
