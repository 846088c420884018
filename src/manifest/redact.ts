/**
 * Every value that came from ${env:...} or ${file:...} is registered here, and everything svcform
 * prints (plans, logs, errors, exports) goes through `redact`, so a secret never reaches a terminal
 * or a CI log even when it turns up somewhere unexpected (an error message echoing a body, say).
 */
export const SENSITIVE = '(sensitive)';

export class Redactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  /**
   * Registers a secret in every form output could carry it: as is, JSON-escaped (an error echoing
   * a request body), URL-encoded, base64 (basic auth), and line by line when it spans lines (a PEM
   * key printed in pieces).
   */
  add(value: string): void {
    if (this.secrets.has(value)) return;
    for (const form of encodings(value)) this.addForm(form);
  }

  private addForm(form: string): void {
    // Very short values would redact ordinary words; they are still masked by pointer in plans.
    if (form.length < 4 || this.secrets.has(form)) return;
    this.secrets.add(form);
    this.pattern = undefined;
  }

  get size(): number {
    return this.secrets.size;
  }

  has(value: string): boolean {
    return this.secrets.has(value);
  }

  redact(text: string): string {
    if (this.secrets.size === 0) return text;
    if (!this.pattern) {
      const escaped = [...this.secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.pattern = new RegExp(escaped.join('|'), 'g');
    }
    return text.replace(this.pattern, SENSITIVE);
  }

  /** A deep copy of a value with every registered secret replaced. */
  redactValue<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return JSON.parse(this.redact(JSON.stringify(value ?? null))) as T;
  }
}

/** A secret and the encodings of it that output may contain. */
function encodings(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), Buffer.from(value, 'utf8').toString('base64')]);
  // JSON-escaping twice: a body quoted inside an error message that is itself JSON.
  forms.add(JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1));
  if (/[\r\n]/.test(value)) {
    for (const line of value.split(/\r?\n/)) {
      const trimmed = line.trim();
      // Lines such as "-----BEGIN PRIVATE KEY-----" are not secret and too common to hide.
      if (trimmed.length >= 8 && !/^-{3,}[A-Z ]+-{3,}$/.test(trimmed)) {
        forms.add(trimmed);
        forms.add(JSON.stringify(trimmed).slice(1, -1));
      }
    }
  }
  return [...forms];
}

/** The process-wide redactor used by every output path. */
export const redactor = new Redactor();
