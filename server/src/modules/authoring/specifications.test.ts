import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { countRows, createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { isZip } from '../../lib/xlsx-guard.js';
import { craftXlsx, deflatedZeros, sheetXml } from '../../../test/xlsx-craft.js';
import { api, ok, singleChoice } from './test-support.js';

// Specifications (кодификатор): the element tree by hand and from a spreadsheet, all or nothing.

let t: TestApp;
let admin: Session;
let a: ReturnType<typeof api>;
let subjectId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  a = api(t.app, admin);
  subjectId = ok<{ id: number }>(await a.post('/api/admin/content/subjects', { name: 'Математика' })).id;
});
afterAll(async () => t.close());

interface Spec {
  id: number;
  elementCount: number;
  elements: {
    id: number;
    code: string;
    name: string;
    kind: string;
    parentId: number | null;
    depth: number;
  }[];
}
const newSpec = async (name = 'Кодификатор') =>
  ok<Spec>(await a.post('/api/admin/content/specifications', { name, subjectId, parallel: 9 }));

/** A multipart body with one file field. */
function form(name: string, data: Buffer, field = 'file') {
  const boundary = '----attesta' + Math.random().toString(16).slice(2);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { ...admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const upload = (specId: number, name: string, data: Buffer | string) => {
  const body = form(name, Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'));
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/content/specifications/${specId}/import`,
    headers: body.headers,
    payload: body.payload,
  });
};

describe('specifications by hand', () => {
  it('creates, lists, updates; elements as a tree; codes unique; no cycles', async () => {
    const spec = await newSpec();
    expect(spec).toMatchObject({ subjectId, parallel: 9, elementCount: 0, elements: [] });
    const list = ok<{ id: number }[]>(
      await a.get(`/api/admin/content/specifications?subjectId=${subjectId}`),
    );
    expect(list.map((s) => s.id)).toContain(spec.id);
    const add = (body: object) => a.post(`/api/admin/content/specifications/${spec.id}/elements`, body);
    const top = ok<Spec>(await add({ code: '1', name: 'Числа' })).elements[0]!;
    const child = ok<Spec>(
      await add({ code: '1.1', name: 'Дроби', parentId: top.id, kind: 'skill' }),
    ).elements.find((e) => e.code === '1.1')!;
    ok(await add({ code: '2', name: 'Алгебра' }));
    const tree = ok<Spec>(await a.get(`/api/admin/content/specifications/${spec.id}`));
    expect(tree.elements.map((e) => [e.code, e.depth, e.kind])).toEqual([
      ['1', 0, 'content'],
      ['1.1', 1, 'skill'],
      ['2', 0, 'content'],
    ]);
    const taken = await add({ code: '1', name: 'Ещё' });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'code_taken']);
    const badParent = await add({ code: '3', name: 'x', parentId: 999999 });
    expect(badParent.statusCode).toBe(400);
    const cycle = await a.put(`/api/admin/content/specificationElements/${top.id}`, {
      code: '1',
      name: 'Числа',
      parentId: child.id,
    });
    expect([cycle.statusCode, cycle.json().errors[0].code]).toEqual([400, 'cycle']);
    const moved = ok<Spec>(
      await a.put(`/api/admin/content/specificationElements/${child.id}`, {
        code: '2.1',
        name: 'Дроби',
        parentId: null,
      }),
    );
    expect(moved.elements.map((e) => [e.code, e.depth])).toEqual([
      ['1', 0],
      ['2', 0],
      ['2.1', 0],
    ]);
    expect(
      ok(await a.put(`/api/admin/content/specifications/${spec.id}`, { name: 'Кодификатор ОГЭ' })),
    ).toMatchObject({ name: 'Кодификатор ОГЭ', subjectId });
  });

  it('classifies tasks; an element or specification that classifies tasks is not deleted', async () => {
    const spec = await newSpec();
    const s = ok<Spec>(
      await a.post(`/api/admin/content/specifications/${spec.id}/elements`, { code: 'A', name: 'A' }),
    );
    const parent = s.elements[0]!;
    const withChild = ok<Spec>(
      await a.post(`/api/admin/content/specifications/${spec.id}/elements`, {
        code: 'A.1',
        name: 'A1',
        parentId: parent.id,
      }),
    );
    const leaf = withChild.elements.find((e) => e.code === 'A.1')!;
    const task = ok<{ id: number }>(await a.post('/api/admin/content/tasks', singleChoice(subjectId)));
    const classified = ok<{ elementIds: number[] }>(
      await a.put(`/api/admin/content/tasks/${task.id}/elements`, { elementIds: [leaf.id] }),
    );
    expect(classified.elementIds).toEqual([leaf.id]);
    const unknown = await a.put(`/api/admin/content/tasks/${task.id}/elements`, { elementIds: [999999] });
    expect(unknown.statusCode).toBe(400);
    expect((await a.del(`/api/admin/content/specificationElements/${parent.id}`)).statusCode).toBe(409);
    expect((await a.del(`/api/admin/content/specifications/${spec.id}`)).statusCode).toBe(409);
    ok(await a.put(`/api/admin/content/tasks/${task.id}/elements`, { elementIds: [] }));
    const afterDelete = ok<Spec>(await a.del(`/api/admin/content/specificationElements/${parent.id}`));
    expect(afterDelete.elements).toEqual([]);
    expect(ok(await a.del(`/api/admin/content/specifications/${spec.id}`))).toEqual({ ok: true });
    expect((await a.get(`/api/admin/content/specifications/${spec.id}`)).statusCode).toBe(404);
  });
});

describe('specification import', () => {
  it('reads a semicolon CSV with Russian headers, then a re-import updates names and parents by code', async () => {
    const spec = await newSpec();
    const csv =
      '\uFEFFКод;Название;Родитель;Вид\n1;Числа;;содержание\n1.1;"Дроби; проценты";1;\n1.2;Степени;1;умение\n';
    const first = ok<{ created: number; updated: number; specification: Spec }>(
      await upload(spec.id, 'k.csv', csv),
    );
    expect([first.created, first.updated]).toEqual([3, 0]);
    expect(first.specification.elements.map((e) => [e.code, e.name, e.depth, e.kind])).toEqual([
      ['1', 'Числа', 0, 'content'],
      ['1.1', 'Дроби; проценты', 1, 'content'],
      ['1.2', 'Степени', 1, 'skill'],
    ]);
    const again = ok<{ created: number; updated: number; specification: Spec }>(
      await upload(spec.id, 'k.csv', 'code,name,parent\n2,Алгебра,\n1.2,Степени с целым показателем,2\n'),
    );
    expect([again.created, again.updated]).toEqual([1, 1]);
    const byCode = new Map(again.specification.elements.map((e) => [e.code, e]));
    expect(byCode.get('1.2')).toMatchObject({
      name: 'Степени с целым показателем',
      parentId: byCode.get('2')!.id,
      kind: 'skill',
    });
    expect(byCode.get('1.1')!.parentId).toBe(byCode.get('1')!.id);
    expect(await countRows(t.database, 'audit_events', `action = 'content.specification.import'`)).toBe(2);
  });

  it('reads the first sheet of an xlsx workbook', async () => {
    const spec = await newSpec();
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Элементы');
    ws.addRow(['code', 'name', 'parent', 'kind']);
    ws.addRow(['A', 'Геометрия', '', 'content']);
    ws.addRow(['A.1', 'Треугольники', 'A', 'skill']);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    expect(isZip(data)).toBe(true);
    const res = ok<{ created: number; specification: Spec }>(await upload(spec.id, 'kodifikator.xlsx', data));
    expect(res.created).toBe(2);
    expect(res.specification.elements.map((e) => [e.code, e.depth, e.kind])).toEqual([
      ['A', 0, 'content'],
      ['A.1', 1, 'skill'],
    ]);
  });

  it('400 package_too_large for an xlsx whose zip claims 1 KB and inflates to 256 MB (issue 23)', async () => {
    const spec = await newSpec();
    const bomb = craftXlsx({ deflated: await deflatedZeros(256 * 1024 * 1024), declaredSize: 1024 });
    const res = await upload(spec.id, 'kodifikator.xlsx', bomb);
    expect([res.statusCode, res.json().code], res.body).toEqual([400, 'package_too_large']);
    // Over the spreadsheet row limit: refused while the sheet inflates, before exceljs parses it.
    const many = await upload(
      spec.id,
      'many.xlsx',
      craftXlsx({ data: sheetXml(['code', 'name'], 50_000, (n) => [`E${n}`, 'Элемент']) }),
    );
    expect([many.statusCode, many.json().code], many.body).toEqual([400, 'import_invalid']);
    expect(many.json().errors[0]).toMatchObject({ code: 'too_many_rows' });
    expect(await countRows(t.database, 'specification_elements', `specification_id = ${spec.id}`)).toBe(0);
  });

  it('400 invalid_text for a NUL in a cell of a csv or an xlsx, naming the cell; nothing written', async () => {
    const spec = await newSpec();
    const csv = await upload(spec.id, 'k.csv', 'code,name\n1,Числа\n2,Дро\u0000би\n');
    expect([csv.statusCode, csv.json().code], csv.body).toEqual([400, 'invalid_text']);
    expect(csv.json().errors[0]).toMatchObject({ path: 'file.row3.col2', params: { row: 3, column: 2 } });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Элементы');
    ws.addRow(['code', 'name']);
    // A spreadsheet's escape of a NUL (_x0000_) reads back as the character.
    ws.addRow(['A', 'Гео_x0000_метрия']);
    const xlsx = await upload(spec.id, 'k.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect([xlsx.statusCode, xlsx.json().code], xlsx.body).toEqual([400, 'invalid_text']);
    expect(xlsx.json().errors[0]).toMatchObject({ path: 'file.row2.col2' });
    expect(await countRows(t.database, 'specification_elements', `specification_id = ${spec.id}`)).toBe(0);
  });

  it('refuses a file with errors, naming each row and column, and writes nothing', async () => {
    const spec = await newSpec();
    ok(await upload(spec.id, 'k.csv', 'code,name\nX,Икс\n'));
    const before = await countRows(t.database, 'specification_elements', `specification_id = ${spec.id}`);
    const csv = [
      'code,name,parent,kind',
      '1,Числа,,',
      '1,Повтор,,', // row 3: duplicate code
      '2,,,', // row 4: no name
      '3,Три,9,', // row 5: unknown parent
      '4,Четыре,,формула', // row 6: unknown kind
      'X,Икс,5,', // row 7 and 8: a cycle through X and 5
      '5,Пять,X,',
    ].join('\n');
    const res = await upload(spec.id, 'k.csv', csv);
    expect([res.statusCode, res.json().code]).toEqual([400, 'import_invalid']);
    const errors = (res.json().errors as { code: string; params: { row: number; column?: string } }[]).map(
      (e) => [e.params.row, e.params.column ?? null, e.code],
    );
    expect(errors).toEqual([
      [3, 'code', 'duplicate_code'],
      [4, 'name', 'required'],
      [5, 'parent', 'unknown_parent'],
      [6, 'kind', 'invalid_kind'],
      [7, 'parent', 'cycle'],
      [8, 'parent', 'cycle'],
    ]);
    expect(await countRows(t.database, 'specification_elements', `specification_id = ${spec.id}`)).toBe(
      before,
    );

    const noHeader = await upload(spec.id, 'k.csv', 'код,что\n1,x\n');
    expect(noHeader.json().errors.map((e: { code: string }) => e.code)).toEqual(['missing_column']);
    const notUtf8 = await upload(spec.id, 'k.csv', Buffer.from([0x63, 0x6f, 0x64, 0x65, 0xff, 0xfe, 0x0a]));
    expect(notUtf8.json().errors[0].code).toBe('not_utf8');
    const pdf = await upload(spec.id, 'k.pdf', '%PDF-1.4');
    expect([pdf.statusCode, pdf.json().code]).toEqual([415, 'unsupported_media_type']);
    const json = await a.post(`/api/admin/content/specifications/${spec.id}/import`, { file: 'x' });
    expect(json.statusCode).toBe(415);
    expect((await upload(999999, 'k.csv', 'code,name\n1,x\n')).statusCode).toBe(404);
  });
});
