import type { DocPath } from './types.js';
import { scanDocument, type DocumentScan } from './scan.js';

export interface ShellStyleReference {
  /** Path of the string from the document root. */
  path: DocPath;
  /** `NAME` of each `${NAME}` in the string, each once, in order. */
  names: string[];
}

// `${NAME}` the way a shell or docker-compose writes it. svcform interpolates only ${env:NAME} and
// ${file:path}, so this text reaches the server as written: almost always a mistake, but also legal
// text (a template of another tool), hence a warning rather than an error.
const SHELL_STYLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The `${NAME}`s in the strings of a document as written (before interpolation), one entry per
 * string: an investigation guide with six placeholders is one finding, not six. One preceded by
 * `$` is escaped (`$${NAME}` is the literal text `${NAME}`) and not reported.
 */
export function shellStyleReferences(root: unknown, templated: DocumentScan['templated'] = scanDocument(root).templated): ShellStyleReference[] {
  const found: ShellStyleReference[] = [];
  for (const { path, text } of templated) {
    const names = new Set<string>();
    for (const m of text.matchAll(SHELL_STYLE)) {
      if (m.index > 0 && text[m.index - 1] === '$') continue;
      names.add(m[1]!);
    }
    if (names.size > 0) found.push({ path, names: [...names] });
  }
  return found;
}

export function shellStyleMessage(names: string[]): string {
  const [first] = names;
  if (names.length === 1) return `\${${first}} is not interpolated and is sent as written: svcform reads environment variables as \${env:${first}} (write $\${${first}} to keep the text)`;
  const listed = names.length <= 4 ? names.map((n) => `\${${n}}`).join(', ') : `${names.slice(0, 3).map((n) => `\${${n}}`).join(', ')} and ${names.length - 3} more`;
  return `${listed} are not interpolated and are sent as written: svcform reads environment variables as \${env:NAME} (write $\${NAME} to keep the text)`;
}
