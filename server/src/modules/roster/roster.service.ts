import {
  defaultClassName,
  type RosterCounts,
  type RosterImportResult,
  type RosterRowError,
} from '@attesta/contract';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { nameKey, readRosterRows, rowError, tableOf, type RosterRow } from './roster.parse.js';
import * as repo from './roster.repo.js';
import { importAllOrNothing, SchoolResolver } from './roster.pass.js';

/*
 * The roster import (docs/roster.md). The file is read and checked, then the same pass runs twice:
 * first without writing (it finds the errors that need the database and counts what would change),
 * then — only when nothing is wrong and it is no dry run — in one transaction under an advisory lock,
 * writing. All or nothing: a file with any error writes nothing.
 */

export interface Actor {
  userId: number;
  ip: string | null;
  /** null: an admin (any school, may create ОО and schools); else the coordinator's own school. */
  ownSchoolId: number | null;
}

const zero = (): RosterCounts => ({ oo: 0, schools: 0, buildings: 0, classes: 0, students: 0 });

/** The live students of a school, by external id and by natural key. */
interface SchoolState {
  buildings: Map<string, number>;
  classes: Map<string, repo.ClassRow>;
  byExternalId: Map<string, repo.StudentRow>;
  byNaturalKey: Map<string, repo.StudentRow>;
}

const classKey = (grade: number, letter: string) => `${grade}|${letter}`;
const naturalKey = (
  classId: number | null,
  s: { surname: string; name: string; patronymic: string | null; birthDate: string | null },
) =>
  [String(classId), nameKey(s.surname), nameKey(s.name), nameKey(s.patronymic ?? ''), s.birthDate ?? ''].join(
    '\u0000',
  );

/**
 * One pass over the rows: matches each with what exists, counts, and (with `tx`) writes. Without
 * `tx` what would be created gets a negative id, so later rows match it as the writing pass will.
 */
class Pass {
  readonly created = zero();
  readonly updated = zero();
  unchanged = 0;
  readonly errors: RosterRowError[] = [];
  private nextVirtualId = -1;
  private schoolStates = new Map<number, SchoolState>();
  private classesCreated = new Set<number>();
  private buildingDecided = new Set<number>();
  private matched = new Map<number, number>();
  private newStudents: (repo.StudentWrite & { schoolId: number })[] = [];
  private changedStudents: (repo.StudentWrite & { id: number })[] = [];
  private moves: { studentId: number; fromClassId: number | null; toClassId: number; changedBy: number }[] =
    [];
  private readonly schools: SchoolResolver;

  constructor(
    private readonly db: DbOrTx,
    private readonly tx: Tx | null,
    private readonly actor: Actor,
  ) {
    this.schools = new SchoolResolver(db, tx, actor.ownSchoolId, () => this.virtualId());
  }

  private virtualId() {
    return this.nextVirtualId--;
  }

  async load(): Promise<void> {
    await this.schools.load();
  }

  private async schoolState(schoolId: number): Promise<SchoolState> {
    let state = this.schoolStates.get(schoolId);
    if (state) return state;
    state = { buildings: new Map(), classes: new Map(), byExternalId: new Map(), byNaturalKey: new Map() };
    this.schoolStates.set(schoolId, state);
    if (schoolId < 0) return state;
    const [buildings, classes, students] = await Promise.all([
      repo.buildingsOf(this.db, schoolId),
      repo.classesOf(this.db, schoolId),
      repo.liveStudentsOf(this.db, schoolId),
    ]);
    for (const b of buildings)
      if (!state.buildings.has(nameKey(b.name))) state.buildings.set(nameKey(b.name), b.id);
    for (const c of classes) state.classes.set(classKey(c.parallelId, c.letter), c);
    for (const s of students) {
      if (s.externalId !== null) state.byExternalId.set(s.externalId, s);
      const key = naturalKey(s.classId, s);
      if (!state.byNaturalKey.has(key)) state.byNaturalKey.set(key, s);
    }
    return state;
  }

  /** The school of a row (found or created), or null with the row's error. */
  private async schoolOf(r: RosterRow): Promise<number | null> {
    const school = await this.schools.schoolOf(r);
    if (typeof school === 'number') return school;
    this.errors.push(
      rowError(
        r.row,
        school.outOfScope,
        'school_out_of_scope',
        'a coordinator imports students of their own school only',
      ),
    );
    return null;
  }

  async row(r: RosterRow): Promise<void> {
    const schoolId = await this.schoolOf(r);
    if (schoolId === null) return;
    const state = await this.schoolState(schoolId);

    let buildingId: number | null = null;
    if (r.building !== null) {
      const key = nameKey(r.building);
      buildingId = state.buildings.get(key) ?? null;
      if (buildingId === null) {
        buildingId = this.tx ? await repo.insertBuilding(this.tx, schoolId, r.building) : this.virtualId();
        state.buildings.set(key, buildingId);
        this.created.buildings++;
      }
    }

    let cls = state.classes.get(classKey(r.grade, r.letter));
    if (!cls) {
      const values = {
        schoolId,
        parallelId: r.grade,
        letter: r.letter,
        name: defaultClassName(r.grade, r.letter),
        buildingId,
      };
      cls = {
        id: this.tx ? await repo.insertClass(this.tx, values) : this.virtualId(),
        parallelId: r.grade,
        letter: r.letter,
        buildingId,
      };
      state.classes.set(classKey(r.grade, r.letter), cls);
      this.classesCreated.add(cls.id);
      this.created.classes++;
    }
    // A class takes the building of the first row that names one.
    if (buildingId !== null && !this.buildingDecided.has(cls.id)) {
      this.buildingDecided.add(cls.id);
      if (cls.buildingId !== buildingId) {
        if (this.tx) await repo.setClassBuilding(this.tx, cls.id, buildingId);
        cls.buildingId = buildingId;
        if (!this.classesCreated.has(cls.id)) this.updated.classes++;
      }
    }

    const next: repo.StudentWrite = {
      classId: cls.id,
      surname: r.surname,
      name: r.name,
      patronymic: r.patronymic,
      birthDate: r.birthDate,
      externalId: r.externalId,
    };
    let current = r.externalId !== null ? state.byExternalId.get(r.externalId) : undefined;
    if (!current) {
      const byKey = state.byNaturalKey.get(naturalKey(cls.id, next));
      // A student with another external id is another student.
      if (byKey && (r.externalId === null || byKey.externalId === null)) current = byKey;
    }
    if (!current) {
      this.newStudents.push({ ...next, schoolId });
      this.created.students++;
      return;
    }
    const firstRow = this.matched.get(current.id);
    if (firstRow !== undefined) {
      this.errors.push(rowError(r.row, 'surname', 'duplicate_row', `the same student as on row ${firstRow}`));
      return;
    }
    this.matched.set(current.id, r.row);
    const changes: Partial<repo.StudentWrite> = {};
    for (const k of ['classId', 'surname', 'name', 'patronymic', 'birthDate'] as const)
      if (current[k] !== next[k]) Object.assign(changes, { [k]: next[k] });
    if (next.externalId !== null && current.externalId !== next.externalId)
      changes.externalId = next.externalId;
    if (!Object.keys(changes).length) {
      this.unchanged++;
      return;
    }
    this.updated.students++;
    if (!this.tx) return;
    this.changedStudents.push({ ...next, id: current.id });
    if (changes.classId !== undefined)
      this.moves.push({
        studentId: current.id,
        fromClassId: current.classId,
        toClassId: cls.id,
        changedBy: this.actor.userId,
      });
  }

  /** Writes what was gathered (new and changed students, class moves). */
  async finish(): Promise<void> {
    this.created.oo = this.schools.created.oo;
    this.created.schools = this.schools.created.schools;
    if (!this.tx) return;
    await repo.updateStudents(this.tx, this.changedStudents);
    await repo.insertStudents(this.tx, this.newStudents);
    await repo.insertClassMoves(this.tx, this.moves);
  }
}

async function runPass(db: DbOrTx, tx: Tx | null, actor: Actor, rows: RosterRow[]): Promise<Pass> {
  const pass = new Pass(db, tx, actor);
  await pass.load();
  for (const r of rows) await pass.row(r);
  await pass.finish();
  return pass;
}

/** `POST /api/admin/roster/import`. */
export async function importRoster(
  db: Db,
  actor: Actor,
  file: { name: string; data: Buffer },
  dryRun: boolean,
): Promise<RosterImportResult> {
  const { rows, errors } = readRosterRows(await tableOf(file.name, file.data));
  const { answer } = await importAllOrNothing<RosterCounts, RosterRowError, Pass>(db, {
    actor,
    action: 'roster.import',
    rows: rows.length,
    fileErrors: errors,
    dryRun,
    run: (on, tx) => runPass(on, tx, actor, rows),
  });
  return answer;
}
