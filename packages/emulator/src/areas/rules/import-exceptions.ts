import type { EmulatorContext } from '../../context.js';
import { array, enumOf, formatIssues, int, nonEmptyString, object, optional, parseBody, string } from '../../zod.js';
import { exceptionItemShape } from './exception-schemas.js';
import { EXCEPTION_LIST_TYPES } from '../exceptions/schemas.js';
import { containers, newItem, newList, own, put, replacing, type Row } from '../exceptions/state.js';

/**
 * The exception lists and items a rules `_import` file may carry ahead of its rules (wire-facts §15,
 * last paragraph), imported and counted as the server does: the import route hands them to the
 * exception-list client (security_solution rule_management/logic/import/import_rule_exceptions.ts,
 * `importExceptionListAndItemsAsArray`) and answers its summary as `exceptions_success`,
 * `exceptions_success_count` (lists plus items imported) and `exceptions_errors`. Per list
 * (lists plugin import utils, sortExceptionListsToUpdateOrCreate): a new list_id is created; an
 * existing one is replaced, its items dropped, under `overwrite_exceptions`, else refused with 409.
 * Per item (sortExceptionItemsToUpdateOrCreate): its list must exist or come in the same file; an
 * existing item_id is replaced under overwrite (409 when it belongs to another list), else 409.
 */

export interface ImportError {
  list_id?: string;
  item_id?: string;
  error: { status_code: number; message: string };
}

export interface ExceptionsImportSummary {
  success: boolean;
  success_count: number;
  errors: ImportError[];
}


/** An exported list line (ImportExceptionsListSchema: the list's own fields; others stripped). */
const ListLine = object({
  list_id: nonEmptyString(),
  type: enumOf(EXCEPTION_LIST_TYPES),
  name: nonEmptyString(),
  description: string(),
  namespace_type: optional(enumOf(['agnostic', 'single'])),
  tags: optional(array(string())),
  os_types: optional(array(enumOf(['linux', 'macos', 'windows']))),
  meta: optional(object({}, 'open')),
  version: optional(int(1)),
});

/** An exported item line: an exception item plus the list it belongs to. */
const ItemLine = object({ ...exceptionItemShape, item_id: nonEmptyString(), list_id: nonEmptyString() });


/** Whether an NDJSON line of a rules export is an exception list or item rather than a rule. */
export function isExceptionLine(line: Row): boolean {
  return 'list_id' in line && !('rule_id' in line);
}

export function importExceptions(ctx: EmulatorContext, space: string, user: string, lines: Row[], overwrite: boolean): ExceptionsImportSummary {
  const errors: ImportError[] = [];
  let imported = 0;
  const itemLines = lines.filter((l) => 'item_id' in l || 'entries' in l);
  const listLines = lines.filter((l) => !itemLines.includes(l));

  for (const raw of listLines) {
    const { value, issues } = parseBody(ListLine, raw);
    if (issues.length) {
      errors.push({ list_id: typeof raw.list_id === 'string' ? raw.list_id : '(unknown list_id)', error: { status_code: 400, message: formatIssues(issues) } });
      continue;
    }
    const list = value as Row;
    const where = containers(ctx, space, list.namespace_type ?? 'single');
    const existing = own(where.lists, list.list_id) ? where.lists[list.list_id] : undefined;
    if (existing && !overwrite) {
      errors.push({ list_id: list.list_id, error: { status_code: 409, message: `Found that list_id: "${list.list_id}" already exists. Import of list_id: "${list.list_id}" skipped.` } });
      continue;
    }
    if (existing) for (const [itemId, item] of Object.entries(where.items)) if (item.list_id === list.list_id) delete where.items[itemId];
    put(where.lists, list.list_id, replacing(existing, newList(ctx, user, list)));
    imported += 1;
  }

  for (const raw of itemLines) {
    const { value, issues } = parseBody(ItemLine, raw);
    if (issues.length) {
      errors.push({ item_id: typeof raw.item_id === 'string' ? raw.item_id : '(unknown item_id)', error: { status_code: 400, message: formatIssues(issues) } });
      continue;
    }
    const item = value as Row;
    const where = containers(ctx, space, item.namespace_type ?? 'single');
    if (!own(where.lists, item.list_id)) {
      errors.push({ item_id: item.item_id, list_id: item.list_id, error: { status_code: 409, message: `Exception list with list_id: "${item.list_id}", not found for exception list item with item_id: "${item.item_id}"` } });
      continue;
    }
    const existing = own(where.items, item.item_id) ? where.items[item.item_id] : undefined;
    if (existing && !overwrite) {
      errors.push({ item_id: item.item_id, list_id: item.list_id, error: { status_code: 409, message: `Found that item_id: "${item.item_id}" already exists. Import of item_id: "${item.item_id}" skipped.` } });
      continue;
    }
    if (existing && existing.list_id !== item.list_id) {
      errors.push({
        item_id: item.item_id,
        list_id: item.list_id,
        error: { status_code: 409, message: `Error trying to update item_id: "${item.item_id}" and list_id: "${item.list_id}". The item already exists under list_id: ${existing.list_id}` },
      });
      continue;
    }
    put(where.items, item.item_id, replacing(existing, newItem(ctx, user, where.lists[item.list_id], item)));
    imported += 1;
  }
  return { success: errors.length === 0, success_count: imported, errors };
}
