/** The calls of the profile area (server/src/modules/profile), each with its roles, meaning and schemas. */
import { expertProfileSaveBodySchema, expertProfileSchema } from '../expert.js';
import { guestProfileSaveBodySchema, guestProfileSchema } from '../guest-profile.js';
import type { CallTable } from '../call-schema.js';

export const PROFILE_CALLS = {
  'GET /api/Profile/expert/get': {
    roles: ['expert'],
    meaning: 'own expert profile',
    response: expertProfileSchema,
  },
  'PUT /api/Profile/expert/saveProfile': {
    roles: ['expert'],
    meaning: 'save own expert profile',
    body: expertProfileSaveBodySchema,
    response: expertProfileSchema,
  },
  'GET /api/Profile/guest/get': {
    roles: ['guest'],
    meaning: 'own guest profile',
    response: guestProfileSchema,
  },
  'PUT /api/Profile/guest/saveProfile': {
    roles: ['guest'],
    meaning: 'save own guest profile',
    body: guestProfileSaveBodySchema,
    response: guestProfileSchema,
  },
} as const satisfies CallTable;
