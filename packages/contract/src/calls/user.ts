/** The calls of the user area (server/src/modules/user), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { currentUserSchema, okSchema } from '../account.js';
import {
  idParamSchema,
  profileSaveBodySchema,
  roleInfoSchema,
  setUserPasswordBodySchema,
  userDetailsSchema,
  userListRequestSchema,
  userListResponseSchema,
  userSaveBodySchema,
  userSaveQuerySchema,
} from '../user.js';
import type { CallTable } from '../call-schema.js';

export const USER_CALLS = {
  'POST /api/user/{id}/changepassword': {
    roles: ['admin'],
    meaning: "set another user's password",
    params: z.object({ id: idParamSchema }),
    body: setUserPasswordBodySchema,
    response: okSchema,
  },
  'GET /api/user/roles': {
    roles: ['admin'],
    meaning: 'all roles',
    response: z.array(roleInfoSchema),
  },
  'GET /api/user/{id}': {
    roles: ['admin'],
    meaning: 'one user',
    params: z.object({ id: idParamSchema }),
    response: userDetailsSchema,
  },
  'POST /api/user/list': {
    roles: ['admin'],
    meaning: 'page of users',
    body: userListRequestSchema,
    response: userListResponseSchema,
  },
  'POST /api/User': {
    roles: ['admin'],
    meaning: 'create or update a user; query pwd sets the password',
    query: userSaveQuerySchema,
    body: userSaveBodySchema,
    response: userDetailsSchema,
  },
  'PUT /api/user/save': {
    roles: 'any',
    meaning: 'update own profile fields',
    body: profileSaveBodySchema,
    response: currentUserSchema,
  },
} as const satisfies CallTable;
