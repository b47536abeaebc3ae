import { customType, timestamp } from 'drizzle-orm/pg-core';

/** `created_at`-style column: when the row was written. */
export const created = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/**
 * jsonb whose values come back exactly as stored. Both drivers (pg, PGlite) already parse jsonb;
 * drizzle's own jsonb parses strings a second time, so a stored answer "12" would come back as
 * the number 12. Use this for columns whose top-level value may be a string (answers, keys).
 */
export const jsonValue = <T>() =>
  customType<{ data: T; driverData: unknown }>({
    dataType: () => 'jsonb',
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => value as T,
  })();
