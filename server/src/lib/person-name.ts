import { sql, type SQL } from 'drizzle-orm';

/**
 * A user's short name as Russian documents write it — «Иванов И. И.» (surname and initials) — from
 * the `users` row aliased `alias`; the login when the account has no surname; null without a user.
 */
export function shortUserName(alias: SQL): SQL<string | null> {
  return sql<string | null>`case when ${alias}.id is null then null else coalesce(
    nullif(concat_ws(' ', nullif(trim(${alias}.surname), ''),
      case when nullif(trim(${alias}.surname), '') is not null and nullif(trim(${alias}.name), '') is not null
        then left(trim(${alias}.name), 1) || '.' end,
      case when nullif(trim(${alias}.surname), '') is not null and nullif(trim(${alias}.patronymic), '') is not null
        then left(trim(${alias}.patronymic), 1) || '.' end), ''),
    ${alias}.login) end`;
}
