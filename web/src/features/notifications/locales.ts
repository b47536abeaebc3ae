/** Texts of the notification bell; a notification is written here by its kind, never by the server. */
import type { Bundle } from '../../components/data-table/use-bundle-t';

const ru = {
  notifications: {
    bell: 'Уведомления',
    bellUnread_one: 'Уведомления: {{count}} непрочитанное',
    bellUnread_few: 'Уведомления: {{count}} непрочитанных',
    bellUnread_many: 'Уведомления: {{count}} непрочитанных',
    bellUnread_other: 'Уведомления: {{count}} непрочитанных',
    title: 'Уведомления',
    empty: 'Уведомлений нет',
    more: 'Показать ещё',
    failed: 'Не удалось загрузить уведомления',
    delete: 'Удалить уведомление',
    unread: 'Не прочитано',
    kinds: {
      results_published: 'Опубликованы результаты диагностики «{{diagnosticName}}»',
      grading_assigned_one: 'Вам назначен {{count}} ответ на проверку',
      grading_assigned_few: 'Вам назначено {{count}} ответа на проверку',
      grading_assigned_many: 'Вам назначено {{count}} ответов на проверку',
      grading_assigned_other: 'Вам назначено {{count}} ответа на проверку',
      queue_done: 'Готово: {{job}} № {{queueItemId}}',
      queue_failed: 'Не выполнено: {{job}} № {{queueItemId}}. {{reason}}',
      feedback_answered: 'Администратор ответил на ваше обращение',
      unknown: 'Новое уведомление',
    },
    jobs: {
      import: 'импорт заданий',
      report: 'отчёт',
      export: 'выгрузка',
      planning: 'планирование',
      result: 'обработка результатов',
      regrade: 'перепроверка',
      other: 'задание очереди',
    },
  },
};

const en: typeof ru = {
  notifications: {
    bell: 'Notifications',
    bellUnread_one: 'Notifications: {{count}} unread',
    bellUnread_few: 'Notifications: {{count}} unread',
    bellUnread_many: 'Notifications: {{count}} unread',
    bellUnread_other: 'Notifications: {{count}} unread',
    title: 'Notifications',
    empty: 'No notifications',
    more: 'Show more',
    failed: 'The notifications could not be loaded',
    delete: 'Delete notification',
    unread: 'Unread',
    kinds: {
      results_published: 'Results of “{{diagnosticName}}” are published',
      grading_assigned_one: '{{count}} answer was assigned to you for grading',
      grading_assigned_few: '{{count}} answers were assigned to you for grading',
      grading_assigned_many: '{{count}} answers were assigned to you for grading',
      grading_assigned_other: '{{count}} answers were assigned to you for grading',
      queue_done: 'Done: {{job}} no. {{queueItemId}}',
      queue_failed: 'Failed: {{job}} no. {{queueItemId}}. {{reason}}',
      feedback_answered: 'An administrator answered your feedback',
      unknown: 'New notification',
    },
    jobs: {
      import: 'content import',
      report: 'report',
      export: 'export',
      planning: 'planning',
      result: 'result processing',
      regrade: 'regrade',
      other: 'queue item',
    },
  },
};

export const notificationsBundle: Bundle = { ru, en };
