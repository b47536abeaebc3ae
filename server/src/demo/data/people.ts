import { seededRandom } from './task-builders.js';

export type Gender = 'male' | 'female';

export interface PersonName {
  surname: string;
  name: string;
  patronymic: string;
  gender: Gender;
}

const words = (text: string) => text.trim().split(/\s+/);

// Common Moscow first names of children born in the 2010s.
const BOYS = words(`
  Александр Максим Артём Михаил Иван Дмитрий Даниил Кирилл Матвей Егор Никита Андрей Тимофей Илья
  Роман Лев Марк Фёдор Алексей Семён
`);
const GIRLS = words(`
  Анна Мария София Алиса Виктория Полина Елизавета Дарья Варвара Ксения Александра Вероника Арина
  Василиса Ева Милана Екатерина Ульяна Таисия Валерия
`);

/** Surnames in the masculine form; the feminine one follows the usual endings (see feminine()). */
const SURNAMES = words(`
  Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Фёдоров Морозов Волков
  Алексеев Лебедев Семёнов Егоров Павлов Козлов Степанов Николаев Орлов Андреев Макаров Никитин
  Захаров Зайцев Соловьёв Борисов Яковлев Григорьев Романов Воробьёв Сергеев Кузьмин Фролов
  Александров Дмитриев Королёв Гусев Киселёв Ильин Максимов Поляков Сорокин Виноградов Ковалёв
  Белов Медведев Антонов Тарасов Жуков Баранов Филиппов Комаров Давыдов Беляев Герасимов Богданов
  Осипов Сидоров Матвеев Титов Марков Миронов Крылов Куликов Карпов Власов Мельников Денисов
  Покровский Успенский Троицкий Вознесенский Голубев Кудрявцев Прохоров Наумов Журавлёв
`);

/** Fathers' names as the patronymic of a son and of a daughter. */
const PATRONYMICS = words(`
  Александрович/Александровна Андреевич/Андреевна Дмитриевич/Дмитриевна Сергеевич/Сергеевна
  Алексеевич/Алексеевна Михайлович/Михайловна Игоревич/Игоревна Владимирович/Владимировна
  Евгеньевич/Евгеньевна Николаевич/Николаевна Павлович/Павловна Олегович/Олеговна
  Викторович/Викторовна Максимович/Максимовна Романович/Романовна Ильич/Ильинична
  Артёмович/Артёмовна Денисович/Денисовна Константинович/Константиновна Юрьевич/Юрьевна
`).map((pair) => pair.split('/') as [string, string]);

/** Иванов → Иванова, Соловьёв → Соловьёва, Никитин → Никитина, Покровский → Покровская. */
export function feminine(surname: string): string {
  if (/(ский|цкий)$/.test(surname)) return surname.replace(/ий$/, 'ая');
  return surname + 'а';
}

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)]!;

/**
 * A deterministic class list: `count` children with distinct surnames across every call of one
 * generator, about half boys and half girls. Seeded, so a reset brings back the same children.
 */
export function nameGenerator(seed: number) {
  const random = seededRandom(seed);
  const surnames = [...SURNAMES];
  return (count: number): PersonName[] => {
    const people: PersonName[] = [];
    for (let i = 0; i < count; i++) {
      const gender: Gender = random() < 0.5 ? 'male' : 'female';
      const index = Math.floor(random() * surnames.length);
      const [surname] = surnames.splice(index, 1);
      if (!surname) throw new Error('demo: not enough distinct surnames');
      const [son, daughter] = pick(PATRONYMICS, random);
      people.push(
        gender === 'male'
          ? { surname, name: pick(BOYS, random), patronymic: son, gender }
          : { surname: feminine(surname), name: pick(GIRLS, random), patronymic: daughter, gender },
      );
    }
    return people.sort((a, b) => a.surname.localeCompare(b.surname, 'ru'));
  };
}

/**
 * A birth date plausible for a grade in the school year that contains `today`: Russian children
 * start 1st grade at 6½–7½, so grade g in the year starting 1 September Y was born between
 * 1 March (Y − 6 − g) and the end of February (Y − 5 − g).
 */
export function birthDateFor(grade: number, today: string, random: () => number): string {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const schoolYear = month >= 9 ? year : year - 1;
  const from = Date.UTC(schoolYear - 6 - grade, 2, 1);
  const to = Date.UTC(schoolYear - 5 - grade, 2, 1) - 86_400_000;
  return new Date(from + Math.floor(random() * ((to - from) / 86_400_000 + 1)) * 86_400_000)
    .toISOString()
    .slice(0, 10);
}
