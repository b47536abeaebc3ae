/**
 * Texts of the live room view, registered into the app's `translation` namespace at import time
 * (feature-local, so the shared locale files stay untouched).
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../lib/i18n';

const ru = {
  monitoring: {
    nav: 'Аудитория онлайн',
    navHint: 'Наблюдение за участниками в реальном времени',
    title: 'Аудитория: наблюдение в реальном времени',
    diagnostic: 'Диагностика',
    class: 'Класс',
    chooseDiagnostic: 'Выберите диагностику',
    chooseClass: 'Выберите класс',
    noDiagnostics: 'Нет диагностик с участниками в ваших классах',
    empty: 'В этой аудитории нет участников',
    live: 'Обновляется в реальном времени',
    reconnecting: 'Нет связи с сервером, переподключаемся…',
    selected: 'Выбрано: {{count}}',
    selectAll: 'Выбрать всех',
    selectRow: 'Выбрать: {{name}}',
    participant: 'Участник',
    subjectTest: 'Тест по предмету',
    participantNo: 'Участник № {{id}}',
    state: 'Состояние',
    progress: 'Ответы',
    timeLeft: 'Осталось',
    lastSave: 'Сохранено',
    connection: 'Связь',
    integrity: 'Нарушения',
    proctoringVerdict: 'Прокторинг',
    code: 'Код активации',
    online: 'в сети',
    offlineSince: 'не в сети с {{time}}',
    never: '—',
    byStaff: 'пауза организатора',
    status: {
      not_started: 'Не начал',
      in_progress: 'Выполняет',
      paused: 'Пауза',
      finished: 'Завершил',
      absent: 'Отсутствует',
    },
    kinds: {
      blur: 'Уход из окна',
      fullscreen_exit: 'Выход из полноэкранного режима',
      visibility_hidden: 'Вкладка скрыта',
      offline: 'Потеря связи',
    },
    actions: {
      pause: 'Приостановить',
      resume: 'Продолжить',
      extend: 'Изменить время',
      logout: 'Завершить сеанс по коду',
      clearSession: 'Сбросить привязку к устройству',
      restore: 'Восстановить работу',
      cancel: 'Отмена',
      confirm: 'Подтвердить',
    },
    confirm: {
      pause: 'Приостановить работу выбранных участников ({{count}})?',
      resume: 'Продолжить работу выбранных участников ({{count}})? Время паузы будет возвращено.',
      extend: 'Изменить время выбранным участникам ({{count}})',
      logout: 'Завершить сеансы выбранных участников ({{count}})? Они смогут войти снова по коду.',
      clearSession:
        'Сбросить привязку к устройству у выбранных участников ({{count}})? Они продолжат на другом устройстве.',
      restore: 'Восстановить удалённые работы выбранных участников ({{count}})?',
    },
    reason: 'Причина',
    reasonRequired: 'Укажите причину',
    minutes: 'Минуты',
    minutesHint: 'Положительное число добавляет время, отрицательное — убавляет',
    minutesInvalid: 'Введите целое число минут, не равное нулю',
    done: 'Готово: {{count}}',
    failed: 'Не удалось: {{message}}',
    nothingApplicable: 'Действие не применимо к выбранным участникам',
    coordinatorNoPause: 'Паузу ставит организатор в аудитории',
  },
};

const en: typeof ru = {
  monitoring: {
    nav: 'Live room',
    navHint: 'Watch participants in real time',
    title: 'Room: live monitoring',
    diagnostic: 'Diagnostic',
    class: 'Class',
    chooseDiagnostic: 'Choose a diagnostic',
    chooseClass: 'Choose a class',
    noDiagnostics: 'No diagnostics with participants in your classes',
    empty: 'No participants in this room',
    live: 'Updates in real time',
    reconnecting: 'Connection lost, reconnecting…',
    selected: 'Selected: {{count}}',
    selectAll: 'Select all',
    selectRow: 'Select {{name}}',
    participant: 'Participant',
    subjectTest: 'Subject test',
    participantNo: 'Participant #{{id}}',
    state: 'State',
    progress: 'Answers',
    timeLeft: 'Time left',
    lastSave: 'Saved',
    connection: 'Connection',
    integrity: 'Integrity',
    proctoringVerdict: 'Proctoring',
    code: 'Activation code',
    online: 'online',
    offlineSince: 'offline since {{time}}',
    never: '—',
    byStaff: 'paused by staff',
    status: {
      not_started: 'Not started',
      in_progress: 'In progress',
      paused: 'Paused',
      finished: 'Finished',
      absent: 'Absent',
    },
    kinds: {
      blur: 'Left the window',
      fullscreen_exit: 'Left fullscreen',
      visibility_hidden: 'Tab hidden',
      offline: 'Connection lost',
    },
    actions: {
      pause: 'Pause',
      resume: 'Resume',
      extend: 'Change time',
      logout: 'End sessions by code',
      clearSession: 'Free the device',
      restore: 'Restore work',
      cancel: 'Cancel',
      confirm: 'Confirm',
    },
    confirm: {
      pause: 'Pause the selected participants ({{count}})?',
      resume: 'Resume the selected participants ({{count}})? Paused time is given back.',
      extend: 'Change the time of the selected participants ({{count}})',
      logout: 'End the sessions of the selected participants ({{count}})? They can sign in again.',
      clearSession:
        'Free the device of the selected participants ({{count}})? They continue on another device.',
      restore: 'Restore the deleted works of the selected participants ({{count}})?',
    },
    reason: 'Reason',
    reasonRequired: 'Give a reason',
    minutes: 'Minutes',
    minutesHint: 'A positive number adds time, a negative one takes it away',
    minutesInvalid: 'Enter a whole number of minutes other than zero',
    done: 'Done: {{count}}',
    failed: 'Failed: {{message}}',
    nothingApplicable: 'The action does not apply to the selected participants',
    coordinatorNoPause: 'The room organizer pauses works',
  },
};

i18n.addResourceBundle('ru', 'translation', ru, true, true);
i18n.addResourceBundle('en', 'translation', en, true, true);

/** `t` for keys under `monitoring.` (they are not part of the typed shared locale). */
export function useMonitoringT() {
  const { t } = useTranslation();
  return useCallback(
    (key: string, options?: Record<string, unknown>): string =>
      (t as unknown as (k: string, o?: Record<string, unknown>) => string)(`monitoring.${key}`, options),
    [t],
  );
}
