/**
 * The Russian words of the staff's reports, written once (issue 23, item 6): the server's files
 * (xlsx) and the web's Russian screens take a report's column headers and status words from here,
 * so a column is called the same on the screen and in the file. English stays in the web's locales.
 */

/** The figures of every report's statistics (the summary, the consolidated table, the control report). */
export const STATS_HEADERS_RU = {
  registered: 'Зарегистрировано',
  annulled: 'Аннулировано',
  tookPart: 'Приступили',
  absent: 'Отсутствовали',
  pending: 'Ещё не писали',
  finished: 'Завершили',
  unfinished: 'Не завершили',
  scored: 'С результатом',
  notScored: 'Без результата',
  meanScore: 'Средний балл',
  meanPercent: 'Средний % выполнения',
  maxScore: 'Макс. балл',
};

/** The control report's attendance and unfinished works. */
export const CONTROL_HEADERS_RU = {
  subjectTest: 'Тест',
  school: 'Школа',
  class: 'Класс',
  testDate: 'Дата',
  participant: 'Участник',
  code: 'Код участника',
  status: 'Состояние',
  startedAt: 'Начало',
  deadlineAt: 'Срок окончания',
};

/** An unfinished work's state in the control report. */
export const UNFINISHED_STATUS_RU = { in_progress: 'Выполняет', paused: 'Пауза' };

/** The detailed report's fixed columns (then one column per task). */
export const DETAILED_HEADERS_RU = {
  code: 'Код участника',
  surname: 'Фамилия',
  school: 'Школа',
  class: 'Класс',
  variant: 'Вариант',
  score: 'Первичный балл',
  percent: '%',
  mark: 'Отметка',
  level: 'Уровень',
};

/** The ugnik's «participants by surname» report. */
export const UGNIK_SURNAMES_HEADERS_RU = {
  participant: 'Участник',
  school: 'Школа',
  class: 'Класс',
  subjectTest: 'Тест по предмету',
  testDate: 'Дата',
  status: 'Статус',
  activationCode: 'Код активации',
  score: 'Первичный балл',
};

/** A participant test's status as every staff list and file names it. */
export const PARTICIPANT_STATUS_RU = {
  planned: 'Запланирован',
  active: 'Код проверен',
  in_progress: 'Выполняет работу',
  finished: 'Работа завершена',
  scored: 'Проверено',
  published: 'Результаты опубликованы',
  absent: 'Отсутствует',
  annulled: 'Аннулирован',
};

/** A person's name as every staff table and file writes it: surname, name, patronymic. */
export const personName = (p: {
  surname?: string | null;
  name?: string | null;
  patronymic?: string | null;
}): string => [p.surname, p.name, p.patronymic].filter(Boolean).join(' ');
