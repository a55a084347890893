/** The plugin API version of this kernel. Plugins declare a compatible range in `kernelApi`. */
export const KERNEL_API_VERSION = '1.0.0';
