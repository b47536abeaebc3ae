import { z } from 'zod';

/** Every role Attesta knows (docs/design.md §1). A user may hold several. */
export const ROLES = [
  'participant',
  'guest',
  'organizator',
  'coordinator',
  'ugnik',
  'expert',
  'admin',
  'integration',
] as const;

export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/**
 * Who may make a call: `anon` — anybody, with or without a session;
 * `any` — any signed-in user; otherwise a list of roles (any one suffices).
 */
export type RoleRule = 'anon' | 'any' | readonly Role[];

/** Staff roles: everybody who works with other people's data. */
export const STAFF_ROLES: readonly Role[] = ['organizator', 'coordinator', 'ugnik', 'expert', 'admin'];

export const ROLE_LABELS: Record<Role, { ru: string; en: string }> = {
  participant: { ru: 'Участник', en: 'Participant' },
  guest: { ru: 'Гость', en: 'Guest' },
  organizator: { ru: 'Организатор в аудитории', en: 'Room organizer' },
  coordinator: { ru: 'Школьный координатор', en: 'School coordinator' },
  ugnik: { ru: 'УГНиК', en: 'Supervision authority' },
  expert: { ru: 'Эксперт', en: 'Expert' },
  admin: { ru: 'Администратор', en: 'Administrator' },
  integration: { ru: 'Интеграция', en: 'Integration' },
};
