/** A failure the CLI reports as one clear message and exit 1 (no stack trace). */
export class UsageError extends Error {}
