import { getTableColumns, type Table } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';

/**
 * A row of a raw statement (`db.execute(sql...)`, snake_case column names, driver values) as the
 * typed row Drizzle would give for `table`: each column's own mapping turns driver values (e.g.
 * timestamp strings) into what the schema declares. For hot statements written as one raw SQL
 * (common table expressions with writes) that must still hand typed rows to their callers.
 */
export function fromRow<T extends Table>(table: T, row: Record<string, unknown>): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    // Columns declared without a name take their key, snake_cased (the client's casing).
    const value = row[column.keyAsName ? toSnakeCase(column.name) : column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}
