import type { DocPath } from './types.js';

export interface ShellStyleReference {
  /** Path of the string from the document root. */
  path: DocPath;
  /** `NAME` of `${NAME}`. */
  name: string;
}

// `${NAME}` the way a shell or docker-compose writes it. svcform interpolates only ${env:NAME} and
// ${file:path}, so this text reaches the server as written: almost always a mistake, but also legal
// text (a template of another tool), hence a warning rather than an error.
const SHELL_STYLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Every `${NAME}` in the strings of a document as written (before interpolation). One preceded by
 * `$` is escaped (`$${NAME}` is the literal text `${NAME}`) and not reported.
 */
export function shellStyleReferences(root: unknown): ShellStyleReference[] {
  const found: ShellStyleReference[] = [];
  const path: DocPath = [];
  const visit = (v: unknown) => {
    if (typeof v === 'string') {
      if (!v.includes('${')) return;
      for (const m of v.matchAll(SHELL_STYLE)) {
        if (m.index > 0 && v[m.index - 1] === '$') continue;
        found.push({ path: path.slice(), name: m[1] });
      }
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        path.push(i);
        visit(x);
        path.pop();
      });
      return;
    }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        path.push(k);
        visit(x);
        path.pop();
      }
    }
  };
  visit(root);
  return found;
}

export function shellStyleMessage(name: string): string {
  return `\${${name}} is not interpolated and is sent as written: svcform reads environment variables as \${env:${name}} (write $\${${name}} to keep the text)`;
}
