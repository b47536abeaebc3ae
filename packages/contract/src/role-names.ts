// Without zod: imported by the web's first chunks (issue 24); roles.ts adds the schema.

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

export type Role = (typeof ROLES)[number];

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
