/**
 * The endpoint scripts library's value rules (security_solution common/api/endpoint/scripts_library/
 * common.ts, SUPPORTED_HOST_OS_TYPE, common/endpoint/service/scripts_library/constants.ts SCRIPT_TAGS,
 * and the `xpack.securitySolution.maxEndpointScriptFileSize` default of 25 MB). The emulator's own
 * copy; svcform keeps another (packages/svcform/src/common/endpoint-scripts.ts).
 */

export const SCRIPT_PLATFORMS = ['linux', 'macos', 'windows'] as const;

/** `script` (one file) or `archive` (a .zip; pathToExecutable names the file to run in it). */
export const SCRIPT_FILE_TYPES = ['script', 'archive'] as const;

/** The keys of SCRIPT_TAGS (the UI shows a label for each). */
export const SCRIPT_TAGS = [
  'remediationAction', 'dataCollection', 'networkDiagnostics', 'networkAction', 'systemInventory', 'forensicCollection',
  'threatHunting', 'discovery', 'systemManagement', 'userManagement', 'troubleshooting',
] as const;

/** The route's body limit (hapi `maxBytes`) and the file storage's `maxSizeBytes`: 25 MB by default. */
export const MAX_SCRIPT_FILE_BYTES = 25 * 1024 * 1024;
