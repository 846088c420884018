/**
 * `+ - * / %` as eql and qlang compute them: null when a side is not a number or on a division by
 * zero, and integer division when both sides are integers.
 */
export function arithmetic(op: string, a: unknown, b: unknown): unknown {
  if (typeof a !== 'number' || typeof b !== 'number') return null;
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? null : Number.isInteger(a) && Number.isInteger(b) ? Math.trunc(a / b) : a / b;
    default:
      return b === 0 ? null : a % b;
  }
}
