/** The svcform release: `--version`, exported manifests and JSON plans carry it. */
export const VERSION = '0.1.0';
