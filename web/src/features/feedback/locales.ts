/** Texts of feedback: the header button, «Мои обращения» and the admins' inbox, Russian and English. */
import { useMemo } from 'react';
import type { FeedbackStatus } from '@attesta/contract';
import { useBundleT, type Bundle, type LooseT } from '../../components/data-table/use-bundle-t';

const ru = {
  feedback: {
    open: 'Обратная связь',
    title: 'Обратная связь',
    text: 'Сообщение',
    textHint: 'Опишите, что случилось или что хотите предложить',
    textRequired: 'Напишите сообщение',
    file: 'Файл (необязательно)',
    filePlaceholder: 'Выберите файл',
    send: 'Отправить',
    cancel: 'Отмена',
    sent: 'Сообщение отправлено. Ответ появится в разделе «Мои обращения».',
    mineLink: 'Мои обращения',
    mineTitle: 'Мои обращения',
    mineEmpty: 'Вы ещё не писали нам.',
    failed: 'Не удалось загрузить обращения.',
    retry: 'Повторить',
    answer: 'Ответ',
    noAnswer: 'Ответа пока нет',
    sentAt: 'Отправлено {{date}}',
    answeredAt: 'Ответ от {{date}}',
    page: 'Страница',
    attachment: 'Файл',
    inboxTitle: 'Обратная связь',
    inboxNav: 'Обратная связь',
    statusFilter: 'Статус',
    allStatuses: 'Все',
    search: 'Поиск по тексту и отправителю',
    inboxEmpty: 'Обращений нет.',
    colDate: 'Дата',
    colSender: 'Отправитель',
    colText: 'Сообщение',
    colStatus: 'Статус',
    open_one: 'Открыть',
    deletedSender: 'Учётная запись удалена',
    sender: 'Отправитель',
    login: 'Логин',
    roles: 'Роли',
    takeInProgress: 'Взять в работу',
    backToNew: 'Вернуть в новые',
    writeAnswer: 'Ответ отправителю',
    sendAnswer: 'Ответить',
    answerRequired: 'Напишите ответ',
    answeredBy: 'Ответил(а): {{name}}',
    saved: 'Сохранено',
    close: 'Закрыть',
    total: 'Всего: {{count}}',
    loading: 'Загрузка…',
    status: {
      new: 'Новое',
      in_progress: 'В работе',
      answered: 'Есть ответ',
    },
  },
};
const en: typeof ru = {
  feedback: {
    open: 'Feedback',
    title: 'Feedback',
    text: 'Message',
    textHint: 'Describe what happened or what you suggest',
    textRequired: 'Write a message',
    file: 'File (optional)',
    filePlaceholder: 'Choose a file',
    send: 'Send',
    cancel: 'Cancel',
    sent: 'Your message was sent. The answer will appear under “My feedback”.',
    mineLink: 'My feedback',
    mineTitle: 'My feedback',
    mineEmpty: 'You have not written to us yet.',
    failed: 'The messages could not be loaded.',
    retry: 'Try again',
    answer: 'Answer',
    noAnswer: 'No answer yet',
    sentAt: 'Sent {{date}}',
    answeredAt: 'Answered {{date}}',
    page: 'Page',
    attachment: 'File',
    inboxTitle: 'Feedback',
    inboxNav: 'Feedback',
    statusFilter: 'Status',
    allStatuses: 'All',
    search: 'Search the text and the sender',
    inboxEmpty: 'No messages.',
    colDate: 'Date',
    colSender: 'Sender',
    colText: 'Message',
    colStatus: 'Status',
    open_one: 'Open',
    deletedSender: 'Account deleted',
    sender: 'Sender',
    login: 'Login',
    roles: 'Roles',
    takeInProgress: 'Take in progress',
    backToNew: 'Back to new',
    writeAnswer: 'Answer to the sender',
    sendAnswer: 'Answer',
    answerRequired: 'Write an answer',
    answeredBy: 'Answered by {{name}}',
    saved: 'Saved',
    close: 'Close',
    total: 'Total: {{count}}',
    loading: 'Loading…',
    status: {
      new: 'New',
      in_progress: 'In progress',
      answered: 'Answered',
    },
  },
};

const bundle: Bundle = { ru, en };

type Key = Exclude<keyof (typeof ru)['feedback'], 'status'>;

export function useFeedbackT() {
  const { t, i18n } = useBundleT(bundle);
  return useMemo(() => {
    const ft = (key: Key, values?: Record<string, unknown>) => t(`feedback.${key}`, values);
    return Object.assign(ft, {
      status: (s: FeedbackStatus) => t(`feedback.status.${s}`),
      raw: t as LooseT,
      lang: i18n.language,
    });
  }, [t, i18n.language]);
}
