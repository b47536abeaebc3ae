/**
 * What the report filters offer, from the list calls of the caller's role: the diagnostics, schools
 * and classes it may see (a coordinator's own school, an ugnik's inspections and their schools,
 * every one for the admin, an organizator's rooms), subject tests and specifications by name.
 */
import { call } from '../../../lib/call';

const inline = { suppressRedirect: true } as const;
const PICK_SIZE = 50;

export type StaffReportRole = 'coordinator' | 'ugnik' | 'admin';
export type PickerRole = StaffReportRole | 'organizator';

export interface Named {
  id: number;
  name: string;
}

export interface DiagnosticOption {
  id: number;
  label: string;
  /** Known from the list (school staff) or the diagnostic's card (ugnik, admin). */
  subjectTests: Named[] | null;
}

export interface DiagnosticDetail extends DiagnosticOption {
  subjectTests: Named[];
  /** The schools it includes; null for school staff, who see their own school only. */
  schools: Named[] | null;
}

const diagnosticLabel = (d: { code: string; name: string }) => `${d.name} (${d.code})`;
const schoolLabel = (s: { name: string; code?: string | null }) =>
  s.code ? `${s.name} (${s.code})` : s.name;
const search = (text: string) => (text.trim() ? { filter: { search: text.trim() } } : {});

/** Diagnostics matching the typed text, newest first. */
export async function searchDiagnostics(
  role: PickerRole,
  text: string,
  signal?: AbortSignal,
): Promise<DiagnosticOption[]> {
  const page = { page: 1, pageSize: PICK_SIZE, sort: { field: 'startsAt', dir: 'desc' } as const };
  const options = { ...inline, signal };
  switch (role) {
    case 'coordinator':
    case 'organizator': {
      const list = await call(
        `POST /api/${role}/diagnostic/list`,
        { body: { ...page, ...search(text) } },
        options,
      );
      return list.items.map((d) => ({
        id: d.id,
        label: diagnosticLabel(d),
        subjectTests: d.subjectTests.map((s) => ({ id: s.id, name: s.name })),
      }));
    }
    case 'ugnik': {
      const list = await call(
        'POST /api/ugnik/diagnostic/list',
        { body: { ...page, ...search(text) } },
        options,
      );
      return list.items.map((d) => ({ id: d.id, label: diagnosticLabel(d), subjectTests: null }));
    }
    case 'admin': {
      const list = await call(
        'POST /api/admin/diagnostics/list',
        { body: { ...page, ...search(text) } },
        options,
      );
      return list.items.map((d) => ({ id: d.id, label: diagnosticLabel(d), subjectTests: d.subjectTests }));
    }
  }
}

/** One diagnostic with its subject tests (and, for the ugnik and the admin, its schools). */
export async function diagnosticDetail(
  role: PickerRole,
  id: number,
  signal?: AbortSignal,
): Promise<DiagnosticDetail | null> {
  const options = { ...inline, signal };
  switch (role) {
    case 'coordinator':
    case 'organizator': {
      // The list has no id filter: the newest 500 are searched, as the school pages do.
      const list = await call(
        `POST /api/${role}/diagnostic/list`,
        { body: { page: 1, pageSize: 500, sort: { field: 'startsAt', dir: 'desc' } } },
        options,
      );
      const d = list.items.find((item) => item.id === id);
      return d
        ? {
            id: d.id,
            label: diagnosticLabel(d),
            subjectTests: d.subjectTests.map((s) => ({ id: s.id, name: s.name })),
            schools: null,
          }
        : null;
    }
    case 'ugnik': {
      const d = await call('GET /api/ugnik/diagnostic/{id}', { params: { id } }, options);
      return { id: d.id, label: diagnosticLabel(d), subjectTests: d.subjectTests, schools: d.schools };
    }
    case 'admin': {
      const d = await call('GET /api/admin/diagnostics/{id}', { params: { id } }, options);
      return {
        id: d.id,
        label: diagnosticLabel(d),
        subjectTests: d.subjectTests,
        schools: d.schools.map((s) => ({ id: s.id, name: schoolLabel(s) })),
      };
    }
  }
}

/** Schools matching the typed text (ugnik and admin; a coordinator has their own school only). */
export async function searchSchools(
  role: 'ugnik' | 'admin',
  text: string,
  signal?: AbortSignal,
): Promise<Named[]> {
  const options = { ...inline, signal };
  if (role === 'ugnik') {
    const list = await call(
      'POST /api/ugnik/school/list',
      { body: { page: 1, pageSize: PICK_SIZE, ...search(text) } },
      options,
    );
    return list.items.map((s) => ({ id: s.id, name: schoolLabel(s) }));
  }
  const list = await call(
    'POST /api/admin/schools/list',
    { body: { page: 1, pageSize: PICK_SIZE, sort: { field: 'name', dir: 'asc' }, ...search(text) } },
    options,
  );
  return list.items.map((s) => ({ id: s.id, name: schoolLabel(s) }));
}

/** The classes a role may choose: of the school (ugnik, admin), or all its own (school staff). */
export async function listClasses(
  role: PickerRole,
  schoolId: number | null,
  signal?: AbortSignal,
): Promise<Named[]> {
  const options = { ...inline, signal };
  switch (role) {
    case 'coordinator':
    case 'organizator': {
      const list = await call(
        `POST /api/${role}/class/list`,
        { body: { page: 1, pageSize: 500, sort: { field: 'name', dir: 'asc' } } },
        options,
      );
      return list.items.map((c) => ({ id: c.id, name: c.name }));
    }
    case 'ugnik': {
      if (!schoolId) return [];
      const list = await call(
        'POST /api/ugnik/class/list',
        { body: { page: 1, pageSize: 500, filter: { schoolId } } },
        options,
      );
      return list.items.map((c) => ({ id: c.id, name: c.name }));
    }
    case 'admin': {
      if (!schoolId) return [];
      const list = await call('GET /api/admin/schools/{id}/classes', { params: { id: schoolId } }, options);
      return list.map((c) => ({ id: c.id, name: c.name }));
    }
  }
}

/** The organizator's buildings (a room may be a whole building). */
export async function listBuildings(signal?: AbortSignal): Promise<Named[]> {
  const list = await call(
    'POST /api/organizator/buildings/list',
    { body: { page: 1, pageSize: 500, sort: { field: 'name', dir: 'asc' } } },
    { ...inline, signal },
  );
  return list.items.map((b) => ({ id: b.id, name: b.name }));
}

/** Subject tests staff may read (the catalog), by name, with the subject. */
export async function listSubjectTests(signal?: AbortSignal): Promise<Named[]> {
  const list = await call('GET /api/createDiagnostic/subjectTests', {}, { ...inline, signal });
  return list.map((s) => ({ id: s.id, name: s.name }));
}

/** Specifications by name (with the subject when there is one). */
export async function listSpecifications(signal?: AbortSignal): Promise<Named[]> {
  const list = await call('GET /api/createDiagnostic/specifications', {}, { ...inline, signal });
  return list.map((s) => ({ id: s.id, name: s.subjectName ? `${s.name} (${s.subjectName})` : s.name }));
}

/** One school's name, for a school chosen in a link (admin). */
export async function adminSchool(id: number, signal?: AbortSignal): Promise<Named> {
  const s = await call('GET /api/admin/schools/{id}', { params: { id } }, { ...inline, signal });
  return { id: s.id, name: schoolLabel(s) };
}
