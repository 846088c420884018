/**
 * Every value that came from ${env:...} or ${file:...} is registered here, and everything svcform
 * prints (plans, logs, errors, exports) goes through `redact`, so a secret never reaches a terminal
 * or a CI log even when it turns up somewhere unexpected (an error message echoing a body, say).
 */
export const SENSITIVE = '(sensitive)';

export class Redactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  add(value: string): void {
    // Very short values would redact ordinary words; they are still masked by pointer in plans.
    if (value.length < 4 || this.secrets.has(value)) return;
    this.secrets.add(value);
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

/** The process-wide redactor used by every output path. */
export const redactor = new Redactor();
