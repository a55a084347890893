/** The plugin's own version (the package's, when it can be read, is what editors are told). */
export const VERSION = '0.1.0';
