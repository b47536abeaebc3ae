import {
  LOGIN_MAX,
  type StaffColumn,
  type StaffImportRole,
  type StaffRowError,
  type StaffRowErrorCode,
} from '@attesta/contract';
import { nameKey, readTableRows, SHARED_HEADERS, type FileLayout, type TableRow } from './roster.parse.js';

/*
 * Reading a staff file (docs/roster.md, «Staff»): the same kinds of file and the same reading as
 * the student roster (roster.parse.ts), with the staff's columns. Rows are checked one by one here;
 * what needs the database (scope, matches, logins in use) is the service's.
 */

/** One checked row: a person, their role and where they work, as the file names them. */
export interface StaffRow {
  row: number;
  oo: string;
  school: string;
  role: StaffImportRole;
  surname: string;
  name: string;
  patronymic: string | null;
  email: string | null;
  login: string | null;
  position: string | null;
  externalId: string | null;
}

const LAYOUT: FileLayout<StaffColumn> = {
  headers: {
    ...SHARED_HEADERS,
    role: 'role',
    роль: 'role',
    email: 'email',
    'e-mail': 'email',
    'эл. почта': 'email',
    'электронная почта': 'email',
    login: 'login',
    логин: 'login',
    position: 'position',
    должность: 'position',
  },
  required: ['oo', 'school', 'role', 'surname', 'name'],
  maxLength: {
    oo: 300,
    school: 300,
    role: 40,
    surname: 100,
    name: 100,
    patronymic: 100,
    email: 200,
    login: LOGIN_MAX,
    position: 200,
    externalId: 100,
  },
};

/** The role column's words, English or Russian, in any case. */
const ROLE_WORDS: Record<string, StaffImportRole> = {
  organizator: 'organizator',
  organizer: 'organizator',
  organiser: 'organizator',
  организатор: 'organizator',
  coordinator: 'coordinator',
  координатор: 'coordinator',
  worker: 'worker',
  staff: 'worker',
  работник: 'worker',
  сотрудник: 'worker',
};

/** The shape of an address the mailer can send to; the link in the mail proves it is theirs. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The person of a row within the file: their external id, else their login, else their e-mail,
 * else school + full name + role (as the service matches them).
 */
const duplicateKey = (r: Omit<StaffRow, 'row'>) => {
  if (r.externalId !== null) return `id\u0000${r.externalId}`;
  if (r.login !== null) return `login\u0000${r.login.toLowerCase()}`;
  if (r.email !== null) return `email\u0000${r.email.toLowerCase()}`;
  return ['n', nameKey(r.oo), nameKey(r.school), r.role, nameKey(r.surname), nameKey(r.name)]
    .concat(nameKey(r.patronymic ?? ''))
    .join('\u0000');
};

const duplicateColumn = (r: Omit<StaffRow, 'row'>): StaffColumn =>
  r.externalId !== null ? 'externalId' : r.login !== null ? 'login' : r.email !== null ? 'email' : 'surname';

/**
 * The staff rows of the table: required values, sizes, the role, the e-mail's shape, no login for
 * a worker (workers have no account), and the same person twice in the file.
 */
export function readStaffRows(table: TableRow[]): { rows: StaffRow[]; errors: StaffRowError[] } {
  return readTableRows<StaffColumn, StaffRowErrorCode, Omit<StaffRow, 'row'>>(
    table,
    LAYOUT,
    (cells) => {
      const { value, fail } = cells;
      const [oo, school, roleText, surname, name, patronymic, email, login, position, externalId] = [
        value('oo'),
        value('school'),
        value('role'),
        value('surname'),
        value('name'),
        value('patronymic'),
        value('email'),
        value('login'),
        value('position'),
        value('externalId'),
      ];
      const role = roleText === null ? undefined : ROLE_WORDS[nameKey(roleText)];
      if (roleText !== null && !role)
        fail('role', 'invalid_role', `«${roleText}» is not organizator, coordinator or worker`);
      if (email !== null && !EMAIL.test(email)) fail('email', 'invalid_email', `«${email}» is not an e-mail`);
      if (role === 'worker' && login !== null)
        fail('login', 'login_for_worker', 'a worker has no account: leave the login empty');
      if (!cells.ok || !role) return null;
      return {
        oo: oo!,
        school: school!,
        role,
        surname: surname!,
        name: name!,
        patronymic,
        email,
        login,
        position,
        externalId,
      };
    },
    {
      key: duplicateKey,
      column: duplicateColumn,
      message: (first) => `the same person as on row ${first}`,
    },
  );
}
