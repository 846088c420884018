/**
 * The CSV reading of the users upload: the route parses with Papa (header false, skipEmptyLines),
 * so fields may be quoted with "" as an escaped quote, rows end with LF or CRLF, and an empty line
 * is no row. Each row is then checked by parse_privileged_user_monitoring_csv_row.ts: one or two
 * columns (user name, label), the name not empty.
 */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    // skipEmptyLines: a row of one empty field is no row.
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (c === '"') (quoted = false), i++;
      else (field += c), i++;
      continue;
    }
    if (c === '"' && field === '') (quoted = true), i++;
    else if (c === ',') row.push(field), (field = ''), i++;
    else if (c === '\r' && text[i + 1] === '\n') endRow(), (i += 2);
    else if (c === '\n') endRow(), i++;
    else (field += c), i++;
  }
  if (field !== '' || row.length) endRow();
  return rows;
}

export type CsvRow = { ok: true; username: string; label?: string } | { ok: false; message: string };

/**
 * Papa's dynamicTyping (the upload sets it): true/false in three casings become booleans and
 * numbers become numbers, quoted or not. So a user named `false` or `0` reads as missing, and a
 * name `007` comes back as the number 7.
 */
export function dynamicTyped(field: string): string | number | boolean | null {
  if (field === 'true' || field === 'TRUE' || field === 'True') return true;
  if (field === 'false' || field === 'FALSE' || field === 'False') return false;
  if (/^\s*-?(\d+\.?|\.\d+|\d+\.\d+)([eE][-+]?\d+)?\s*$/.test(field)) return parseFloat(field);
  return field === '' ? null : field;
}

/** parse_privileged_user_monitoring_csv_row.ts: the messages of its two errors. */
export function csvUser(row: string[]): CsvRow {
  if (row.length === 0 || row.length > 2) return { ok: false, message: `Expected 1 or 2 columns, got ${row.length}` };
  const username = dynamicTyped(row[0]);
  const label = row[1] === undefined ? null : dynamicTyped(row[1]);
  if (!username) return { ok: false, message: 'Missing user name' };
  return { ok: true, username: String(username), ...(label ? { label: String(label) } : {}) };
}
