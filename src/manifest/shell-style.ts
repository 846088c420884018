import type { DocPath } from './types.js';
import { scanDocument, type DocumentScan } from './scan.js';

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
export function shellStyleReferences(root: unknown, templated: DocumentScan['templated'] = scanDocument(root).templated): ShellStyleReference[] {
  const found: ShellStyleReference[] = [];
  for (const { path, text } of templated) {
    for (const m of text.matchAll(SHELL_STYLE)) {
      if (m.index > 0 && text[m.index - 1] === '$') continue;
      found.push({ path, name: m[1] });
    }
  }
  return found;
}

export function shellStyleMessage(name: string): string {
  return `\${${name}} is not interpolated and is sent as written: svcform reads environment variables as \${env:${name}} (write $\${${name}} to keep the text)`;
}
