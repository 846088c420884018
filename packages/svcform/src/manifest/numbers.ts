import { displayField } from './schema.js';
import type { DocPath } from './types.js';
import { scanDocument, type DocumentScan } from './scan.js';

export interface NumberIssue {
  path: DocPath;
  message: string;
}

/**
 * Numbers YAML can write that JSON cannot carry: `.inf`, `-.inf` and values too large for a double
 * such as 1e400 (all infinity), and `.nan`. Wherever they appear they are a mistake, whatever the
 * field allows (JSON.stringify would send null).
 */
export function unsendableNumbers(root: unknown, found: DocumentScan['unsendable'] = scanDocument(root).unsendable): NumberIssue[] {
  return found.map(({ path, value }) => {
    const field = displayField(path);
    if (Number.isNaN(value)) return { path, message: `${field} must be a number, not .nan (not a number)` };
    const sign = value > 0 ? '' : '-';
    return { path, message: `${field} must be a finite number, not ${sign}infinity (${sign}.inf, or a number too large to represent such as ${sign}1e400)` };
  });
}
