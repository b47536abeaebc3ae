import { hasAccommodations, type Accommodations } from '@attesta/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import type { Grouping } from './dif.js';
import { analysedJoins, analysedWhere, eachBatch } from './item-analysis.repo.js';

/*
 * The groups of the analysed participants for the DIF checks (dif.ts): their school (the
 * participant test's), the school's area, the grade (the parallel of the class registered for the
 * test, else the student's class), the student's gender and whether the student has
 * accommodations (docs/accommodations.md; a stored profile that changes nothing counts as none).
 * Workers and guests have no gender, grade or accommodations recorded: unknown there.
 */

interface Row {
  id: number;
  schoolId: number | null;
  school: string | null;
  areaId: number | null;
  area: string | null;
  grade: number | null;
  gender: string | null;
  studentId: number | null;
  accommodations: Accommodations | null;
}

/** Groups of one grouping, in order of first appearance (or fixed keys for pairs). */
class Groups {
  readonly index = new Map<string, number>();
  readonly groups: { key: string; label: string | null }[] = [];
  readonly groupOf: Int32Array;
  constructor(persons: number, fixed: string[] = []) {
    this.groupOf = new Int32Array(persons).fill(-1);
    for (const key of fixed) this.of(key, null);
  }
  of(key: string, label: string | null) {
    let g = this.index.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.index.set(key, g);
      this.groups.push({ key, label });
    }
    return g;
  }
  set(row: number, key: string | null, label: string | null = null) {
    if (key !== null) this.groupOf[row] = this.of(key, label);
  }
}

export async function loadGroupings(
  db: Db,
  diagnosticId: number,
  subjectTestId: number,
  schoolId: number | null,
  workIds: Float64Array,
): Promise<Grouping[]> {
  const P = workIds.length;
  const rowOf = new Map<number, number>();
  workIds.forEach((id, row) => rowOf.set(id, row));
  const school = new Groups(P);
  const area = new Groups(P);
  const grade = new Groups(P);
  const gender = new Groups(P, ['male', 'female']);
  const accommodations = new Groups(P, ['without', 'with']);
  if (P === 0) return [];

  await eachBatch<Row>(
    db,
    'item_analysis_groups',
    sql`select w.id, pt.school_id as "schoolId", coalesce(sc.short_name, sc.name) as school,
        sc.area_id as "areaId", ar.name as area, coalesce(pc.parallel_id, sclass.parallel_id) as grade,
        st.gender, st.id as "studentId", st.accommodations
      from ${analysedJoins}
      left join schools sc on sc.id = pt.school_id
      left join areas ar on ar.id = sc.area_id
      left join students st on st.id = pt.student_id
      left join classes pc on pc.id = pt.class_id
      left join classes sclass on sclass.id = st.class_id
      where ${analysedWhere(diagnosticId, subjectTestId, schoolId)}`,
    (rows) => {
      for (const r of rows) {
        const row = rowOf.get(Number(r.id));
        if (row === undefined) continue;
        if (r.schoolId !== null) school.set(row, String(r.schoolId), r.school);
        if (r.areaId !== null) area.set(row, String(r.areaId), r.area);
        if (r.grade !== null) grade.set(row, String(r.grade));
        if (r.gender === 'male' || r.gender === 'female') gender.set(row, r.gender);
        if (r.studentId !== null)
          accommodations.set(row, hasAccommodations(r.accommodations) ? 'with' : 'without');
      }
    },
  );
  return [
    { kind: 'school', design: 'one_vs_rest', ...pick(school) },
    { kind: 'area', design: 'one_vs_rest', ...pick(area) },
    { kind: 'grade', design: 'one_vs_rest', ...pick(grade) },
    { kind: 'gender', design: 'pair', ...pick(gender) },
    { kind: 'accommodations', design: 'pair', ...pick(accommodations) },
  ];
}

const pick = (g: Groups) => ({ groups: g.groups, groupOf: g.groupOf });
