import type { Role } from '@attesta/contract';

/**
 * The demo organisation: one ОО with two school branches, as a Moscow education complex is
 * organised. The INN is the marker reset uses to find the demo oo (a real ОО never has it:
 * 7799 is not an issued Moscow tax office code).
 */
export const DEMO_OO = {
  name: 'Государственное бюджетное общеобразовательное учреждение города Москвы «Образовательный комплекс № 1»',
  shortName: 'ГБОУ «Образовательный комплекс № 1»',
  inn: '7799000001',
};

export interface DemoClass {
  grade: number;
  letter: string;
  /** Index into the school's buildings. */
  building: number;
  students: number;
}

export interface DemoSchool {
  key: 'school1' | 'school2';
  name: string;
  shortName: string;
  /** School codes are unique platform-wide; the `DEMO-` prefix keeps them clear of real ones. */
  code: string;
  buildings: { name: string; address: string }[];
  classes: DemoClass[];
}

export const DEMO_SCHOOLS: DemoSchool[] = [
  {
    key: 'school1',
    name: 'Школа № 1 «Сокольники» (ГБОУ «Образовательный комплекс № 1»)',
    shortName: 'Школа № 1 «Сокольники»',
    code: 'DEMO-1',
    buildings: [
      { name: 'Корпус 1 (основной)', address: '107113, г. Москва, ул. Русаковская, д. 31' },
      { name: 'Корпус 2', address: '107014, г. Москва, ул. Сокольнический Вал, д. 8' },
    ],
    classes: [
      { grade: 5, letter: 'А', building: 1, students: 10 },
      { grade: 5, letter: 'Б', building: 1, students: 10 },
      { grade: 7, letter: 'А', building: 0, students: 10 },
      { grade: 7, letter: 'Б', building: 0, students: 10 },
    ],
  },
  {
    key: 'school2',
    name: 'Школа № 2 «Преображенская» (ГБОУ «Образовательный комплекс № 1»)',
    shortName: 'Школа № 2 «Преображенская»',
    code: 'DEMO-2',
    buildings: [{ name: 'Корпус 3', address: '107061, г. Москва, ул. Большая Черкизовская, д. 5' }],
    classes: [
      { grade: 9, letter: 'А', building: 0, students: 10 },
      { grade: 11, letter: 'А', building: 0, students: 10 },
    ],
  },
];

export const className = (grade: number, letter: string) => `${grade} «${letter}»`;

export const DEMO_POSITIONS = [
  'Директор',
  'Заместитель директора по учебно-воспитательной работе',
  'Учитель',
  'Организатор в аудитории',
  'Технический специалист',
];

export interface DemoWorker {
  key: string;
  school: DemoSchool['key'];
  position: string;
  surname: string;
  name: string;
  patronymic: string;
  email: string;
}

export const DEMO_WORKERS: DemoWorker[] = [
  {
    key: 'director',
    school: 'school1',
    position: 'Директор',
    surname: 'Соколов',
    name: 'Виктор',
    patronymic: 'Геннадьевич',
    email: 'sokolov.vg@demo.attesta.local',
  },
  {
    key: 'coordinator',
    school: 'school1',
    position: 'Заместитель директора по учебно-воспитательной работе',
    surname: 'Смирнова',
    name: 'Елена',
    patronymic: 'Викторовна',
    email: 'coordinator@demo.attesta.local',
  },
  {
    key: 'organizator',
    school: 'school1',
    position: 'Организатор в аудитории',
    surname: 'Волкова',
    name: 'Ирина',
    patronymic: 'Сергеевна',
    email: 'organizator@demo.attesta.local',
  },
  {
    key: 'math-teacher',
    school: 'school1',
    position: 'Учитель',
    surname: 'Морозова',
    name: 'Татьяна',
    patronymic: 'Николаевна',
    email: 'morozova.tn@demo.attesta.local',
  },
  {
    key: 'tech',
    school: 'school1',
    position: 'Технический специалист',
    surname: 'Лебедев',
    name: 'Дмитрий',
    patronymic: 'Игоревич',
    email: 'lebedev.di@demo.attesta.local',
  },
  {
    key: 'physics-teacher',
    school: 'school2',
    position: 'Учитель',
    surname: 'Павлова',
    name: 'Наталья',
    patronymic: 'Александровна',
    email: 'pavlova.na@demo.attesta.local',
  },
  {
    key: 'deputy2',
    school: 'school2',
    position: 'Заместитель директора по учебно-воспитательной работе',
    surname: 'Кравцов',
    name: 'Олег',
    patronymic: 'Петрович',
    email: 'kravtsov.op@demo.attesta.local',
  },
];

export interface DemoUser {
  login: 'admin' | 'coordinator' | 'organizator' | 'expert' | 'expert2' | 'expert3' | 'ugnik' | 'guest';
  roles: Role[];
  surname: string;
  name: string;
  patronymic: string;
  email: string;
  /** Scope anchors (users.schoolId / ooId / workerId). */
  school?: DemoSchool['key'];
  bindToOo?: boolean;
  /** Bound to the demo area (an ugnik: it sees the area's school diagnostics, docs/ugnik.md). */
  bindToArea?: boolean;
  worker?: string;
  /** The organizator's rooms: classes as `7 «А»` of their school. */
  assignedClasses?: string[];
  profile?: Record<string, unknown>;
}

/** docs/design.md §8: these logins (plus two more experts for double and third marking), all with DEMO_PASSWORD. */
export const DEMO_USERS: DemoUser[] = [
  {
    login: 'admin',
    roles: ['admin'],
    surname: 'Орлов',
    name: 'Сергей',
    patronymic: 'Михайлович',
    email: 'admin@demo.attesta.local',
  },
  {
    login: 'coordinator',
    roles: ['coordinator'],
    surname: 'Смирнова',
    name: 'Елена',
    patronymic: 'Викторовна',
    email: 'coordinator@demo.attesta.local',
    school: 'school1',
    worker: 'coordinator',
  },
  {
    login: 'organizator',
    roles: ['organizator'],
    surname: 'Волкова',
    name: 'Ирина',
    patronymic: 'Сергеевна',
    email: 'organizator@demo.attesta.local',
    school: 'school1',
    worker: 'organizator',
    assignedClasses: ['7 «А»', '7 «Б»'],
  },
  {
    login: 'expert',
    roles: ['expert'],
    surname: 'Григорьева',
    name: 'Ольга',
    patronymic: 'Петровна',
    email: 'expert@demo.attesta.local',
    profile: { subjects: ['demo-math', 'demo-rus'] },
  },
  {
    login: 'expert2',
    roles: ['expert'],
    surname: 'Соколов',
    name: 'Андрей',
    patronymic: 'Викторович',
    email: 'expert2@demo.attesta.local',
  },
  {
    login: 'expert3',
    roles: ['expert'],
    surname: 'Фёдорова',
    name: 'Марина',
    patronymic: 'Игоревна',
    email: 'expert3@demo.attesta.local',
  },
  {
    login: 'ugnik',
    roles: ['ugnik'],
    surname: 'Белов',
    name: 'Константин',
    patronymic: 'Андреевич',
    email: 'ugnik@demo.attesta.local',
    bindToOo: true,
    bindToArea: true,
  },
  {
    login: 'guest',
    roles: ['guest'],
    surname: 'Никитина',
    name: 'Анна',
    patronymic: 'Дмитриевна',
    email: 'guest@demo.attesta.local',
    profile: { parallel: 7 },
  },
];

export const DEMO_LOGINS = DEMO_USERS.map((u) => u.login);

/**
 * Who sits which subject tests today: classes (by school and name) → subject test names.
 * 7 «А» writes two works, 7 «Б» one, 9 «А» two.
 */
export const DEMO_REGISTRATIONS: { school: DemoSchool['key']; className: string; tests: string[] }[] = [
  {
    school: 'school1',
    className: '7 «А»',
    tests: [
      'Диагностическая работа по математике, 7 класс',
      'Диагностическая работа по русскому языку, 7 класс',
    ],
  },
  { school: 'school1', className: '7 «Б»', tests: ['Диагностическая работа по математике, 7 класс'] },
  {
    school: 'school2',
    className: '9 «А»',
    tests: ['Диагностическая работа по физике, 9 класс', 'Диагностическая работа по информатике, 9 класс'],
  },
];

/** The demo area: every demo school lies in it and the demo ugnik watches it (docs/ugnik.md). */
export const DEMO_AREA = 'Центральный район (демо)';
