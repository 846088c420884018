import { displayField } from './schema.js';
import type { DocPath } from './types.js';

export interface NumberIssue {
  path: DocPath;
  message: string;
}

/**
 * Numbers YAML can write that JSON cannot carry: `.inf`, `-.inf` and values too large for a double
 * such as 1e400 (all infinity), and `.nan`. Wherever they appear they are a mistake, whatever the
 * field allows (JSON.stringify would send null).
 */
export function unsendableNumbers(root: unknown): NumberIssue[] {
  const out: NumberIssue[] = [];
  const path: DocPath = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'number') {
      const field = displayField(path);
      if (Number.isNaN(v)) out.push({ path: path.slice(), message: `${field} must be a number, not .nan (not a number)` });
      else if (!Number.isFinite(v)) {
        const sign = v > 0 ? '' : '-';
        out.push({ path: path.slice(), message: `${field} must be a finite number, not ${sign}infinity (${sign}.inf, or a number too large to represent such as ${sign}1e400)` });
      }
      return;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        visit(v[i]);
        path.pop();
      }
      return;
    }
    if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        path.push(k);
        visit((v as Record<string, unknown>)[k]);
        path.pop();
      }
    }
  };
  visit(root);
  return out;
}
