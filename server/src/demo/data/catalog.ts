import type { DemoTask } from './task-builders.js';

export interface DemoSubject {
  /** `demo-` prefix: it is how reset tells demo content from real content. */
  code: string;
  name: string;
}

export interface DemoSubjectTest {
  subject: DemoSubject;
  testGroup: string;
  name: string;
  parallels: number[];
  durationMinutes: number;
  description: string;
  instructionHtml: string;
  /** Parallel variants: the same answer type and max score at every position. */
  variants: DemoTask[][];
  /** Open to guests (docs/open-tests.md); such a test is in no demo diagnostic. */
  isOpen?: boolean;
}

export const DEMO_SUBJECTS = {
  math: { code: 'demo-math', name: 'Математика' },
  russian: { code: 'demo-rus', name: 'Русский язык' },
  physics: { code: 'demo-phys', name: 'Физика' },
  informatics: { code: 'demo-inf', name: 'Информатика' },
} satisfies Record<string, DemoSubject>;

export const DEMO_TEST_GROUPS = ['Независимая диагностика: основное общее образование'];

/** The procedure text every participant reads before starting (same rules for all demo tests). */
export function procedureHtml(test: Pick<DemoSubjectTest, 'durationMinutes' | 'variants'>): string {
  const tasks = test.variants[0]!.length;
  return [
    '<h3>Порядок проведения диагностики</h3>',
    `<p>На выполнение работы отводится <b>${test.durationMinutes} минут</b>. Работа состоит из ${tasks} заданий.</p>`,
    '<ul>',
    '<li>Задания можно выполнять в любом порядке; к пропущенному заданию можно вернуться.</li>',
    '<li>Ответы сохраняются автоматически: статус «Сохранено» показывает, что ответ принят.</li>',
    '<li>Во время работы нельзя пользоваться телефоном, справочниками и калькулятором, если это не разрешено инструкцией.</li>',
    '<li>При плохом самочувствии или сбое сообщите организатору в аудитории — он приостановит работу.</li>',
    '<li>Когда закончите, нажмите «Завершить работу». По истечении времени работа завершится сама, сохранённые ответы будут проверены.</li>',
    '</ul>',
    '<p>Результаты станут доступны после публикации.</p>',
  ].join('');
}

/** The usual «Инструкция по выполнению работы» of a Moscow diagnostic, filled in per test. */
export function instructionHtml(parts: {
  durationMinutes: number;
  tasks: number;
  shortTasks: string;
  extendedTasks: string;
  extra?: string;
}): string {
  return [
    '<h3>Инструкция по выполнению работы</h3>',
    `<p>На выполнение диагностической работы отводится ${parts.durationMinutes} минут. Работа включает ${parts.tasks} заданий.</p>`,
    `<p>${parts.shortTasks}</p>`,
    `<p>${parts.extendedTasks}</p>`,
    parts.extra ? `<p>${parts.extra}</p>` : '',
    '<p>Баллы, полученные за выполненные задания, суммируются. Постарайтесь выполнить как можно больше заданий.</p>',
    '<p><i>Желаем успеха!</i></p>',
  ].join('');
}
