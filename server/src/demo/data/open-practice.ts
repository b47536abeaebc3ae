import { isManualAnswerType } from '@attesta/contract';
import { DEMO_SUBJECTS, DEMO_TEST_GROUPS, type DemoSubjectTest } from './catalog.js';
import { math7 } from './math.js';

/*
 * The demo's open test (docs/open-tests.md): a practice test the demo guest can take at any time,
 * made of the automatically scored tasks of the mathematics test (an open test has no task for
 * experts), so its result shows the moment an attempt is finished.
 */
const autoOnly = math7.variants.map((variant) =>
  variant.filter((task) => !isManualAnswerType(task.definition.answerType)),
);

export const openMathPractice: DemoSubjectTest = {
  subject: DEMO_SUBJECTS.math,
  testGroup: DEMO_TEST_GROUPS[0]!,
  name: 'Пробный тест по математике, 7 класс',
  parallels: [7],
  durationMinutes: 20,
  description:
    'Открытый пробный тест: пройдите его в любое время и сколько угодно раз — баллы и правильные ' +
    'ответы видны сразу после завершения.',
  instructionHtml:
    `<h3>Инструкция</h3><p>На выполнение отводится 20 минут. Тест включает ${autoOnly[0]!.length} заданий ` +
    'с кратким ответом или выбором ответа. Дробную часть числа отделяйте запятой.</p>' +
    '<p>Результат с правильными ответами откроется сразу после завершения попытки.</p>',
  variants: autoOnly,
  isOpen: true,
};
