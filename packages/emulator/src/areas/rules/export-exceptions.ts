import type { EmulatorContext } from '../../context.js';
import { containers, itemsOfList, listByListId } from '../exceptions/state.js';

/**
 * The exception lists a rules `_export` carries: every list the exported rules link, each followed
 * by its items, written after the rules and before the connectors, with their counts in the
 * summary line (security_solution rule_management/logic/export/get_export_all.ts and
 * get_export_by_object_ids.ts: `${rulesNdjson}${exceptionLists}${actionConnectors}${exportDetails}`;
 * export details exported_exception_list_count, exported_exception_list_item_count,
 * missing_exception_lists). A list a rule links that no longer exists is reported missing.
 */

export interface ExportedExceptions {
  lines: string[];
  details: {
    exported_exception_list_count: number;
    exported_exception_list_item_count: number;
    missing_exception_list_item_count: number;
    missing_exception_list_items: unknown[];
    missing_exception_lists: Array<{ list_id: string; namespace_type: string }>;
    missing_exception_lists_count: number;
  };
}

export function exportExceptions(ctx: EmulatorContext, space: string, rules: Array<Record<string, any>>): ExportedExceptions {
  const seen = new Set<string>();
  const lines: string[] = [];
  const missing: Array<{ list_id: string; namespace_type: string }> = [];
  let listCount = 0;
  let itemCount = 0;
  for (const rule of rules) {
    for (const link of rule.exceptions_list ?? []) {
      const namespaceType = link.namespace_type ?? 'single';
      const key = `${namespaceType}\u0000${link.list_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const where = containers(ctx, space, namespaceType);
      const list = listByListId(where, link.list_id);
      if (!list) {
        missing.push({ list_id: link.list_id, namespace_type: namespaceType });
        continue;
      }
      const items = itemsOfList(where, list.list_id);
      lines.push(JSON.stringify(list), ...items.map((i) => JSON.stringify(i)));
      listCount += 1;
      itemCount += items.length;
    }
  }
  return {
    lines,
    details: {
      exported_exception_list_count: listCount,
      exported_exception_list_item_count: itemCount,
      missing_exception_list_item_count: 0,
      missing_exception_list_items: [],
      missing_exception_lists: missing,
      missing_exception_lists_count: missing.length,
    },
  };
}
