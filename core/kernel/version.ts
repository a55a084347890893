/** The plugin API version of this kernel. Plugins declare a compatible range in `kernelApi`. */
export const KERNEL_API_VERSION = '2.0.0';

/** The package's name on the npm registry: what plugins import and list as their peer dependency. */
export const PACKAGE_NAME = '@assistant-cli/assistant';
