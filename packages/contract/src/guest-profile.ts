import { z } from 'zod';

/* A guest's own profile: /api/Profile/guest/get and /api/Profile/guest/saveProfile. */

const namePart = z.string().trim().min(1).max(100);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => v || null);

export const guestProfileSchema = z
  .object({
    login: z.string(),
    email: z.string().nullable(),
    surname: z.string().nullable(),
    name: z.string().nullable(),
    patronymic: z.string().nullable(),
    parallel: z.number().int().nullable().describe('grade 0 (preschool) – 11'),
    schoolName: z.string().nullable().describe('free text'),
    city: z.string().nullable(),
  })
  .meta({ id: 'GuestProfile' });
export type GuestProfile = z.infer<typeof guestProfileSchema>;

/** The whole profile is sent each time; an empty text clears the field like null does. */
export const guestProfileSaveBodySchema = z
  .strictObject({
    surname: namePart,
    name: namePart,
    patronymic: optionalText(100).optional(),
    parallel: z.number().int().min(0).max(11).nullable().optional(),
    schoolName: optionalText(300).optional(),
    city: optionalText(100).optional(),
  })
  .meta({ id: 'GuestProfileSaveBody' });
export type GuestProfileSaveBody = z.infer<typeof guestProfileSaveBodySchema>;
