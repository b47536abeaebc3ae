import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ReportSpecification, ReportSpecificationQuery } from '@attesta/contract';
import type { Db } from '../../db/client.js';
import {
  diagnostics,
  specificationElements,
  specifications,
  subjectTests,
  taskElements,
} from '../../db/schema/index.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { buildWorkbook, sheet, XLSX_MIME } from '../../lib/xlsx.js';
import { percent } from '../scoring/index.js';
import { filterCaption, type ReportFile } from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { reportRowScope, STAFF_REPORT_ROLES } from './reports.access.js';
import { reportRowPages, taskScoresOf } from './reports.repo.js';
import { isCounted } from './stats.js';
import type { ReportCaller } from './summary.service.js';

/*
 * `specification`: mastery of each element of a specification (кодификатор) — the share of the
 * points earned on the tasks mapped to it (task_elements) in the counted results. Elements form a
 * tree; a parent counts the tasks mapped to it or to any element below it, each task once per
 * work (a task mapped to two children of one parent is not counted twice in the parent).
 */

type Element = ReportSpecification['elements'][number];

/**
 * The specification the report is about: named, else the subject test's, else the diagnostic's;
 * 400 when there is none, 404 for an unknown one.
 */
export async function specificationOf(db: Db, query: ReportSpecificationQuery) {
  let id = query.specId ?? null;
  if (id === null && query.subjectTestId !== undefined) {
    const [t] = await db
      .select({ specId: subjectTests.specificationId })
      .from(subjectTests)
      .where(eq(subjectTests.id, query.subjectTestId));
    id = t?.specId ?? null;
  }
  if (id === null && query.diagnosticId !== undefined) {
    const [d] = await db
      .select({ specId: diagnostics.specificationId })
      .from(diagnostics)
      .where(eq(diagnostics.id, query.diagnosticId));
    id = d?.specId ?? null;
  }
  if (id === null)
    throw badRequest('validation_failed', 'Name the specification (specId), or a subject test that has one', [
      { path: 'querystring.specId', message: 'required here', code: 'invalid_type' },
    ]);
  const [spec] = await db
    .select({ id: specifications.id, name: specifications.name })
    .from(specifications)
    .where(eq(specifications.id, id));
  if (!spec) throw notFound('No such specification');
  return spec;
}

/** The elements in tree order (siblings by position, then code) with their depth and task closure. */
async function elementsOf(db: Db, specId: number): Promise<Element[]> {
  const rows = await db
    .select({
      id: specificationElements.id,
      parentId: specificationElements.parentId,
      code: specificationElements.code,
      name: specificationElements.name,
      kind: specificationElements.kind,
      position: specificationElements.position,
    })
    .from(specificationElements)
    .where(eq(specificationElements.specificationId, specId))
    .orderBy(asc(specificationElements.position), asc(specificationElements.code));
  const links = rows.length
    ? await db
        .select({ elementId: taskElements.elementId, taskId: taskElements.taskId })
        .from(taskElements)
        .where(
          inArray(
            taskElements.elementId,
            rows.map((r) => r.id),
          ),
        )
    : [];
  const direct = new Map<number, Set<number>>();
  for (const l of links) direct.set(l.elementId, (direct.get(l.elementId) ?? new Set()).add(l.taskId));
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, typeof rows>();
  for (const r of rows) {
    // A parent outside the specification (never expected) puts the element at the top.
    const parent = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const out: Element[] = [];
  const visit = (parent: number | null, depth: number, seen: Set<number>): Set<number> => {
    const below = new Set<number>();
    for (const r of children.get(parent) ?? []) {
      if (seen.has(r.id)) continue; // a cycle (never expected) is cut
      const element: Element = {
        id: r.id,
        parentId: parent,
        code: r.code,
        name: r.name,
        kind: r.kind,
        depth,
        taskIds: [],
      };
      out.push(element);
      const closure = new Set([
        ...(direct.get(r.id) ?? []),
        ...visit(r.id, depth + 1, new Set([...seen, r.id])),
      ]);
      element.taskIds = [...closure].sort((a, b) => a - b);
      for (const t of closure) below.add(t);
    }
    return below;
  };
  visit(null, 0, new Set());
  return out;
}

/** Earned and max points per element of one group of works, in hundredths. */
class Mastery {
  works = 0;
  readonly earned: number[];
  readonly max: number[];
  constructor(size: number) {
    this.earned = new Array<number>(size).fill(0);
    this.max = new Array<number>(size).fill(0);
  }
  add(perElement: { earned: number; max: number }[]) {
    this.works++;
    perElement.forEach((e, i) => {
      this.earned[i]! += e.earned;
      this.max[i]! += e.max;
    });
  }
  cells(elements: Element[]) {
    return elements.map((e, i) => {
      const earned = this.earned[i]! / 100;
      const max = this.max[i]! / 100;
      return { elementId: e.id, earned, max, percent: max > 0 ? percent(earned, max) : null };
    });
  }
}

export async function specificationData(
  caller: ReportCaller,
  query: ReportSpecificationQuery,
): Promise<ReportSpecification> {
  const filters = reportFilters(query);
  const now = caller.now ?? new Date();
  const spec = await specificationOf(caller.db, query);
  const elements = await elementsOf(caller.db, spec.id);
  const closures = elements.map((e) => new Set(e.taskIds));
  const total = new Mastery(elements.length);
  const schools = new Map<
    number | null,
    { name: string | null; m: Mastery; classes: Map<number | null, { name: string | null; m: Mastery }> }
  >();
  const where = and(reportRowScope(caller.auth, STAFF_REPORT_ROLES), filterCondition(filters));
  for await (const page of reportRowPages(caller.db, where, { onPage: caller.onPage })) {
    const counted = page.filter(isCounted);
    const scores = await taskScoresOf(
      caller.db,
      counted.map((r) => r.workId!),
    );
    const byWork = new Map<number, typeof scores>();
    for (const s of scores) {
      const list = byWork.get(s.examWorkId);
      if (list) list.push(s);
      else byWork.set(s.examWorkId, [s]);
    }
    for (const r of counted) {
      const taskScores = byWork.get(r.workId!) ?? [];
      const perElement = closures.map((closure) => {
        let earned = 0;
        let max = 0;
        for (const s of taskScores)
          if (closure.has(s.taskId)) {
            earned += Math.round((s.score ?? 0) * 100);
            max += Math.round(s.maxScore * 100);
          }
        return { earned, max };
      });
      total.add(perElement);
      let school = schools.get(r.schoolId);
      if (!school)
        schools.set(
          r.schoolId,
          (school = { name: r.schoolName, m: new Mastery(elements.length), classes: new Map() }),
        );
      school.m.add(perElement);
      let cls = school.classes.get(r.classId);
      if (!cls) school.classes.set(r.classId, (cls = { name: r.className, m: new Mastery(elements.length) }));
      cls.m.add(perElement);
    }
  }
  const byName = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '', 'ru');
  const rows: ReportSpecification['rows'] = [
    {
      level: 'total',
      schoolId: null,
      schoolName: null,
      classId: null,
      className: null,
      works: total.works,
      cells: total.cells(elements),
    },
  ];
  for (const [schoolId, s] of [...schools.entries()].sort(([, a], [, b]) => byName(a.name, b.name))) {
    rows.push({
      level: 'school',
      schoolId,
      schoolName: s.name,
      classId: null,
      className: null,
      works: s.m.works,
      cells: s.m.cells(elements),
    });
    for (const [classId, c] of [...s.classes.entries()].sort(([, a], [, b]) => byName(a.name, b.name)))
      rows.push({
        level: 'class',
        schoolId,
        schoolName: s.name,
        classId,
        className: c.name,
        works: c.m.works,
        cells: c.m.cells(elements),
      });
  }
  return { generatedAt: now.toISOString(), filters, specification: spec, elements, rows };
}

const LEVEL_NAMES = { total: 'Итого', school: 'Школа', class: 'Класс' } as const;

export async function specificationFile(
  caller: ReportCaller,
  query: ReportSpecificationQuery,
): Promise<ReportFile> {
  const data = await specificationData(caller, query);
  const caption = await filterCaption(caller.db, data.filters);
  type Row = ReportSpecification['rows'][number];
  const byId = new Map(data.elements.map((e) => [e.id, e]));
  const body = await buildWorkbook([
    sheet<Row>({
      name: 'Освоение элементов',
      title: [
        `Результаты по элементам спецификации: ${data.specification.name}`,
        ...caption,
        'Доля набранных баллов, %',
      ],
      rows: data.rows,
      columns: [
        { header: 'Строка', width: 8, value: (r) => LEVEL_NAMES[r.level] },
        { header: 'Школа', width: 32, value: (r) => r.schoolName },
        { header: 'Класс', width: 9, value: (r) => r.className },
        { header: 'Работ', width: 8, value: (r) => r.works },
        ...data.elements.map((e, i) => ({
          header: `${e.code} ${e.name}`,
          width: 14,
          value: (r: Row) => r.cells[i]!.percent,
        })),
      ],
    }),
    sheet<ReportSpecification['elements'][number]>({
      name: 'Элементы',
      rows: data.elements,
      columns: [
        { header: 'Код', width: 10, value: (e) => e.code },
        { header: 'Элемент', width: 60, value: (e) => `${'  '.repeat(e.depth)}${e.name}` },
        { header: 'Вид', width: 10, value: (e) => (e.kind === 'skill' ? 'умение' : 'содержание') },
        {
          header: 'Входит в',
          width: 10,
          value: (e) => (e.parentId !== null ? (byId.get(e.parentId)?.code ?? null) : null),
        },
        { header: 'Заданий', width: 10, value: (e) => e.taskIds.length },
      ],
    }),
  ]);
  return { fileName: `Результаты по спецификации.xlsx`, mime: XLSX_MIME, body };
}
