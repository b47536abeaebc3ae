/** Strings of the roster import screen (ru default, en), registered next to the shared locales. */
import type {
  RosterColumn,
  RosterRowErrorCode,
  StaffColumn,
  StaffCounts,
  StaffRowErrorCode,
} from '@attesta/contract';
import { useBundleT, type Bundle, type LooseT } from '../../components/data-table/use-bundle-t';

type Texts = {
  columns: Record<RosterColumn, { name: string; value: string }>;
  rowErrors: Record<RosterRowErrorCode | 'unknown', string>;
};

/** What the staff file's screen says differently from the students' (under `roster.staff.`). */
type StaffTexts = {
  intro: string;
  coordinatorScope: string;
  adminScope: string;
  fileRules: string;
  matching: string;
  file: string;
  importing: string;
  confirmTitle: string;
  kinds: Record<keyof StaffCounts, string>;
  willUnchanged: string;
  unchanged: string;
  columns: Record<StaffColumn, { name: string; value: string }>;
  rowErrors: Record<StaffRowErrorCode | 'unknown', string>;
  fileErrors: { too_many_rows: string; conflict: string; forbidden: string };
};

const ruStaff: StaffTexts = {
  intro:
    'Сотрудники школ — организаторы, координаторы и работники (сотрудники, проходящие тесты для работников) — ' +
    'из одной таблицы: одна строка — один человек. Импорт выполняется целиком или не выполняется совсем.',
  coordinatorScope:
    'Вы можете загружать организаторов и работников только своей школы. Строки с ролью «координатор», ' +
    'другой школой или ОО будут отмечены как ошибки.',
  adminScope:
    'Импорт для любой школы: отсутствующие ОО и школы будут созданы. Организаторы и координаторы получают ' +
    'учётную запись без пароля: на указанный e-mail придёт ссылка, по которой они зададут пароль сами.',
  fileRules:
    'Файл .xlsx (читается первый лист) или .csv в кодировке UTF-8 с разделителем «,» или «;», ' +
    'не больше 5 МБ и 20 000 строк. Первая непустая строка — заголовок с названиями столбцов ' +
    '(по-русски или по-английски, в любом порядке), дальше — по строке на человека.',
  matching:
    'Человек находится по внешнему id, затем по логину, по e-mail, а без них — по школе, ФИО и роли. ' +
    'Найденный обновляется, остальные создаются. Повторный импорт того же файла ничего не меняет. ' +
    'Пароли и ссылки в ответе не показываются.',
  file: 'Файл с сотрудниками',
  importing: 'Импортируем сотрудников… Не закрывайте страницу.',
  confirmTitle: 'Импортировать сотрудников?',
  kinds: {
    oo: 'ОО',
    schools: 'Школы',
    users: 'Учётные записи',
    organizators: 'Организаторы',
    coordinators: 'Координаторы',
    workers: 'Работники',
  },
  willUnchanged: 'Строк без изменений: {{count}}',
  unchanged: 'Строк без изменений: {{count}}',
  columns: {
    oo: { name: 'ОО', value: 'название ОО' },
    school: { name: 'Школа', value: 'название школы' },
    role: { name: 'Роль', value: '«организатор», «координатор» или «работник» («сотрудник»)' },
    surname: { name: 'Фамилия', value: 'фамилия сотрудника' },
    name: { name: 'Имя', value: 'имя сотрудника' },
    patronymic: { name: 'Отчество', value: 'отчество сотрудника' },
    email: { name: 'E-mail', value: 'адрес, на который придёт ссылка для входа' },
    login: {
      name: 'Логин',
      value: 'логин организатора или координатора (без него — e-mail); у работника не указывается',
    },
    position: { name: 'Должность', value: 'должность: от неё зависят тесты для работников' },
    externalId: { name: 'Внешний id', value: 'номер сотрудника в учётной системе' },
  },
  rowErrors: {
    required: 'Не заполнено обязательное значение (у новой учётной записи нужен логин или e-mail).',
    too_long: 'Слишком длинное значение.',
    invalid_role: 'Роль не распознана: укажите «организатор», «координатор» или «работник».',
    invalid_email: 'Это не адрес электронной почты.',
    duplicate_row:
      'Этот человек уже есть в файле выше (или две строки указывают на одного и того же человека).',
    school_out_of_scope: 'Строка относится к другой школе или ОО: можно загружать только свою школу.',
    role_not_allowed: 'Эту роль или учётную запись нельзя менять импортом с вашими правами.',
    login_taken: 'Этот логин уже занят другой учётной записью.',
    email_taken: 'Этот e-mail уже указан у другой учётной записи.',
    external_id_taken: 'Этот внешний id уже принадлежит другому человеку.',
    login_for_worker: 'У работника нет учётной записи: оставьте логин пустым.',
    unknown: 'Ошибка в строке.',
  },
  fileErrors: {
    too_many_rows: 'В файле слишком много строк: не больше 20 000 за один раз.',
    conflict:
      'Пока шёл импорт, те же учётные записи или сотрудники были изменены другим пользователем. Ничего не записано: проверьте файл снова и повторите импорт.',
    forbidden: 'У вас нет прав на импорт сотрудников.',
  },
};

const enStaff: StaffTexts = {
  intro:
    'School staff — organizers, coordinators and workers (staff who take worker tests) — from one ' +
    'spreadsheet, one row per person. The import is all or nothing.',
  coordinatorScope:
    'You may import organizers and workers of your own school only. Rows with the coordinator role, ' +
    'another school or ОО are marked as errors.',
  adminScope:
    'An import for any school: missing ОО and schools are created. Organizers and coordinators get an ' +
    'account without a password: a link to set one is sent to their e-mail.',
  fileRules:
    'An .xlsx file (its first sheet is read) or a UTF-8 .csv separated by commas or semicolons, at ' +
    'most 5 MB and 20,000 rows. The first non-empty row is the header with the column names ' +
    '(in Russian or English, in any order), then one row per person.',
  matching:
    'A person is found by the external id, then the login, the e-mail, or without them by school, full ' +
    'name and role. A person found is updated, the others are created. Importing the same file again ' +
    'changes nothing. No password or link is ever shown in the answer.',
  file: 'File with the staff',
  importing: 'Importing the staff… Keep this page open.',
  confirmTitle: 'Import the staff?',
  kinds: {
    oo: 'ОО',
    schools: 'Schools',
    users: 'Accounts',
    organizators: 'Organizers',
    coordinators: 'Coordinators',
    workers: 'Workers',
  },
  willUnchanged: 'Rows unchanged: {{count}}',
  unchanged: 'Rows unchanged: {{count}}',
  columns: {
    oo: { name: 'ОО', value: "the ОО's name" },
    school: { name: 'School', value: "the school's name" },
    role: { name: 'Role', value: 'organizator, coordinator or worker (in Russian too)' },
    surname: { name: 'Surname', value: "the person's surname" },
    name: { name: 'Name', value: "the person's first name" },
    patronymic: { name: 'Patronymic', value: "the person's patronymic" },
    email: { name: 'E-mail', value: 'where the link to log in is sent' },
    login: {
      name: 'Login',
      value: "an organizer's or coordinator's login (without one, the e-mail); none for a worker",
    },
    position: { name: 'Position', value: 'the position: it decides the worker tests' },
    externalId: { name: 'External id', value: "the person's id in the staff register" },
  },
  rowErrors: {
    required: 'A required value is empty (a new account needs a login or an e-mail).',
    too_long: 'The value is too long.',
    invalid_role: 'The role is not recognised: write organizator, coordinator or worker.',
    invalid_email: 'This is not an e-mail address.',
    duplicate_row: 'This person is already in the file above (or two rows match the same person).',
    school_out_of_scope: 'The row names another school or ОО: you may import your own school only.',
    role_not_allowed: 'Your import may not set this role or change this account.',
    login_taken: 'This login is already another account’s.',
    email_taken: 'This e-mail is already another account’s.',
    external_id_taken: 'This external id is already another person’s.',
    login_for_worker: 'A worker has no account: leave the login empty.',
    unknown: 'The row has an error.',
  },
  fileErrors: {
    too_many_rows: 'The file has too many rows: at most 20,000 at a time.',
    conflict:
      'While importing, another user changed the same accounts or staff. Nothing was written: check the file again and repeat the import.',
    forbidden: 'You may not import staff.',
  },
};

const ruTexts: Texts = {
  columns: {
    oo: { name: 'ОО', value: 'название ОО' },
    school: { name: 'Школа', value: 'название школы' },
    building: { name: 'Здание', value: 'название здания (корпуса) школы' },
    grade: { name: 'Параллель', value: 'число от 0 до 11' },
    class: { name: 'Класс', value: '«7А», «7 «А»», «7-А» или одна буква («А»)' },
    surname: { name: 'Фамилия', value: 'фамилия ученика' },
    name: { name: 'Имя', value: 'имя ученика' },
    patronymic: { name: 'Отчество', value: 'отчество ученика' },
    birthDate: { name: 'Дата рождения', value: 'гггг-мм-дд или дд.мм.гггг' },
    externalId: { name: 'Внешний id', value: 'номер ученика в учётной системе школы' },
  },
  rowErrors: {
    required: 'Не заполнено обязательное значение.',
    too_long: 'Слишком длинное значение.',
    invalid_grade: 'Параллель должна быть числом от 0 до 11.',
    invalid_class: 'Класс не распознан: укажите, например, «7А», «7 «А»» или букву класса.',
    class_grade_mismatch: 'Номер в названии класса не совпадает с параллелью.',
    invalid_date: 'Дата не распознана: нужна настоящая дата не раньше 1900 года (гггг-мм-дд или дд.мм.гггг).',
    duplicate_row:
      'Этот ученик уже есть в файле выше (или две строки указывают на одного и того же ученика).',
    school_out_of_scope: 'Строка относится к другой школе или ОО: можно загружать только свою школу.',
    unknown: 'Ошибка в строке.',
  },
};

const enTexts: Texts = {
  columns: {
    oo: { name: 'ОО', value: "the ОО's name" },
    school: { name: 'School', value: "the school's name" },
    building: { name: 'Building', value: "the name of the school's building" },
    grade: { name: 'Grade', value: 'a number from 0 to 11' },
    class: { name: 'Class', value: '“7А”, “7 «А»”, “7-А” or the letter alone (“А”)' },
    surname: { name: 'Surname', value: "the student's surname" },
    name: { name: 'Name', value: "the student's first name" },
    patronymic: { name: 'Patronymic', value: "the student's patronymic" },
    birthDate: { name: 'Birth date', value: 'yyyy-mm-dd or dd.mm.yyyy' },
    externalId: { name: 'External id', value: "the student's id in the school's own register" },
  },
  rowErrors: {
    required: 'A required value is empty.',
    too_long: 'The value is too long.',
    invalid_grade: 'The grade must be a number from 0 to 11.',
    invalid_class: 'The class is not recognised: write, for example, “7А”, “7 «А»” or the letter.',
    class_grade_mismatch: "The number in the class does not match the row's grade.",
    invalid_date: 'The date is not recognised: a real day from 1900 on (yyyy-mm-dd or dd.mm.yyyy).',
    duplicate_row: 'This student is already in the file above (or two rows match the same student).',
    school_out_of_scope: 'The row names another school or ОО: you may import your own school only.',
    unknown: 'The row has an error.',
  },
};

const ru = {
  roster: {
    nav: 'Импорт контингента',
    title: 'Импорт контингента',
    kindLabel: 'Что загружаем',
    kindStudents: 'Ученики',
    kindStaff: 'Сотрудники',
    staff: ruStaff,
    intro:
      'Ученики вместе с их ОО, школой, зданием и классом из одной таблицы: одна строка — один ученик. ' +
      'Импорт выполняется целиком или не выполняется совсем: если в файле есть ошибки, ничего не изменится.',
    coordinatorScope:
      'Вы можете загружать учеников только своей школы. Строки другой школы или другой ОО будут отмечены ' +
      'как ошибки; новые ОО и школы при вашем импорте не создаются.',
    adminScope: 'Импорт для любой школы: отсутствующие ОО, школы, здания и классы будут созданы.',
    fileTitle: 'Что должно быть в файле',
    fileRules:
      'Файл .xlsx (читается первый лист) или .csv в кодировке UTF-8 с разделителем «,» или «;», ' +
      'не больше 5 МБ и 20 000 учеников. Первая непустая строка — заголовок с названиями столбцов ' +
      '(по-русски или по-английски, в любом порядке), дальше — по строке на ученика.',
    columnsCaption: 'Столбцы файла',
    column: 'Столбец',
    required: 'Обязательный',
    value: 'Что указать',
    yes: 'да',
    no: 'нет',
    matching:
      'Ученик находится по внешнему id, а без него — по классу, ФИО и дате рождения. Найденный ученик ' +
      'обновляется, остальные создаются. Повторный импорт того же файла ничего не меняет.',
    templates: 'Шаблон',
    templateXlsx: 'Скачать шаблон .xlsx',
    templateCsv: 'Скачать шаблон .csv',
    file: 'Файл с учениками',
    filePlaceholder: 'Выберите файл .xlsx или .csv',
    wrongType: 'Нужен файл .xlsx или .csv.',
    check: 'Проверить',
    import: 'Импортировать',
    importHint: 'Импорт станет доступен, когда проверка этого файла пройдёт без ошибок.',
    checking: 'Проверяем файл…',
    importing: 'Импортируем учеников… Не закрывайте страницу.',
    confirmTitle: 'Импортировать учеников?',
    confirmText:
      'Из файла «{{file}}» будут созданы и обновлены записи, как показала проверка. Отменить импорт нельзя.',
    confirm: 'Импортировать',
    cancel: 'Отмена',
    previewTitle: 'Результат проверки',
    previewClean: 'Ошибок нет: файл можно импортировать. Пока ничего не записано.',
    previewErrors_one:
      'В файле {{count}} ошибка. Исправьте файл и проверьте снова: пока в нём есть ошибки, импорт ничего не запишет.',
    previewErrors_few:
      'В файле {{count}} ошибки. Исправьте файл и проверьте снова: пока в нём есть ошибки, импорт ничего не запишет.',
    previewErrors_many:
      'В файле {{count}} ошибок. Исправьте файл и проверьте снова: пока в нём есть ошибки, импорт ничего не запишет.',
    previewErrors_other:
      'В файле {{count}} ошибки. Исправьте файл и проверьте снова: пока в нём есть ошибки, импорт ничего не запишет.',
    previewCountsWithErrors: 'Строки без ошибок дали бы такой результат:',
    resultTitle: 'Импорт выполнен',
    resultText: 'Файл «{{file}}» импортирован.',
    resultErrors: 'Импорт не выполнен: в файле появились ошибки, ничего не записано.',
    countsCaption: 'Сколько записей',
    kind: 'Что',
    willCreate: 'Будет создано',
    willUpdate: 'Будет обновлено',
    created: 'Создано',
    updated: 'Обновлено',
    kinds: { oo: 'ОО', schools: 'Школы', buildings: 'Здания', classes: 'Классы', students: 'Ученики' },
    willUnchanged: 'Учеников без изменений: {{count}}',
    unchanged: 'Учеников без изменений: {{count}}',
    errorsCaption: 'Ошибки по строкам',
    row: 'Строка',
    errorColumn: 'Столбец',
    error: 'Ошибка',
    noColumn: '—',
    fileErrors: {
      unsupported_format: 'Формат файла не поддерживается: нужен .xlsx или .csv в кодировке UTF-8.',
      missingColumns: 'В файле нет обязательных столбцов: {{columns}}.',
      validation_failed: 'Файл не прошёл проверку: проверьте заголовок и формат.',
      too_many_rows: 'В файле слишком много строк: не больше 20 000 учеников за один раз.',
      payload_too_large: 'Файл слишком большой: не больше 5 МБ.',
      conflict:
        'Пока шёл импорт, те же классы или ученики были изменены другим пользователем. Ничего не записано: проверьте файл снова и повторите импорт.',
      forbidden: 'У вас нет прав на импорт контингента.',
      no_file: 'Выберите файл.',
    },
    ...ruTexts,
  },
};

// English has only the plural forms one and other.
const en = {
  roster: {
    nav: 'Roster import',
    title: 'Roster import',
    kindLabel: 'What to import',
    kindStudents: 'Students',
    kindStaff: 'Staff',
    staff: enStaff,
    intro:
      'Students with their ОО, school, building and class from one spreadsheet, one row per student. ' +
      'The import is all or nothing: a file with errors changes nothing.',
    coordinatorScope:
      'You may import students of your own school only. Rows naming another school or ОО are marked ' +
      'as errors; your import creates no ОО and no schools.',
    adminScope: 'An import for any school: missing ОО, schools, buildings and classes are created.',
    fileTitle: 'What the file must hold',
    fileRules:
      'An .xlsx file (its first sheet is read) or a UTF-8 .csv separated by commas or semicolons, at ' +
      'most 5 MB and 20,000 students. The first non-empty row is the header with the column names ' +
      '(in Russian or English, in any order), then one row per student.',
    columnsCaption: 'Columns of the file',
    column: 'Column',
    required: 'Required',
    value: 'What to write',
    yes: 'yes',
    no: 'no',
    matching:
      'A student is found by the external id, or without one by class, full name and birth date. A ' +
      'student found is updated, the others are created. Importing the same file again changes nothing.',
    templates: 'Template',
    templateXlsx: 'Download the .xlsx template',
    templateCsv: 'Download the .csv template',
    file: 'File with the students',
    filePlaceholder: 'Choose an .xlsx or .csv file',
    wrongType: 'Choose an .xlsx or .csv file.',
    check: 'Check',
    import: 'Import',
    importHint: 'The import becomes available once a check of this file finds no errors.',
    checking: 'Checking the file…',
    importing: 'Importing the students… Keep this page open.',
    confirmTitle: 'Import the students?',
    confirmText:
      'The records are created and updated from “{{file}}” as the check showed. An import cannot be undone.',
    confirm: 'Import',
    cancel: 'Cancel',
    previewTitle: 'Check result',
    previewClean: 'No errors: the file can be imported. Nothing has been written yet.',
    previewErrors_one:
      'The file has {{count}} error. Fix the file and check it again: while it has errors, the import writes nothing.',
    previewErrors_other:
      'The file has {{count}} errors. Fix the file and check it again: while it has errors, the import writes nothing.',
    previewCountsWithErrors: 'The rows without errors would give:',
    resultTitle: 'Import done',
    resultText: '“{{file}}” has been imported.',
    resultErrors: 'The import was not done: the file now has errors, nothing was written.',
    countsCaption: 'How many records',
    kind: 'What',
    willCreate: 'To create',
    willUpdate: 'To update',
    created: 'Created',
    updated: 'Updated',
    kinds: { oo: 'ОО', schools: 'Schools', buildings: 'Buildings', classes: 'Classes', students: 'Students' },
    willUnchanged: 'Students unchanged: {{count}}',
    unchanged: 'Students unchanged: {{count}}',
    errorsCaption: 'Errors by row',
    row: 'Row',
    errorColumn: 'Column',
    error: 'Error',
    noColumn: '—',
    fileErrors: {
      unsupported_format: 'This file format is not supported: choose an .xlsx or a UTF-8 .csv file.',
      missingColumns: 'The file lacks required columns: {{columns}}.',
      validation_failed: 'The file did not pass the check: look at its header and format.',
      too_many_rows: 'The file has too many rows: at most 20,000 students at a time.',
      payload_too_large: 'The file is too large: at most 5 MB.',
      conflict:
        'While importing, another user changed the same classes or students. Nothing was written: check the file again and repeat the import.',
      forbidden: 'You may not import a roster.',
      no_file: 'Choose a file.',
    },
    ...enTexts,
  },
};

export const rosterBundle: Bundle = { ru, en };

/** `t` over the roster texts (keys below `roster.`). */
export function useRosterT(): LooseT {
  const { t } = useBundleT(rosterBundle);
  return (key, options) => t(`roster.${key}`, options);
}
