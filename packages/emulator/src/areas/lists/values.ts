import { listValueProblem } from '../../facts/list-values.js';

export { LIST_TYPES } from '../../facts/list-values.js';

/**
 * Whether the search backend would index `value` in a field of the list's type: the same rules
 * svcform checks manifests with (src/common/list-values.ts), so the two refuse the same values.
 */
export function valueFits(type: string, value: string): boolean {
  return value.length > 0 && listValueProblem(type, value) === undefined;
}

/** The backend's mapping failure text, as the security app passes it through with a 400. */
export function valueError(type: string, value: string, itemId: string): string {
  return `failed to parse field [${type}] of type [${type}] in document with id '${itemId}'. Preview of field's value: '${value}'`;
}
