/**
 * The feedback texts every signed-in page shows (the header's button, the admins' menu entry): a
 * bundle of their own, so the modal's and the pages' texts (locales.ts) come with them.
 */
import { useBundleT, type Bundle } from '../../components/data-table/use-bundle-t';

const ru = {
  feedback: {
    open: 'Обратная связь',
    inboxNav: 'Обратная связь',
    loadFailed: 'Обратная связь недоступна без сети',
  },
};
const en: typeof ru = {
  feedback: {
    open: 'Feedback',
    inboxNav: 'Feedback',
    loadFailed: 'Feedback needs a connection',
  },
};
const feedbackNavBundle: Bundle = { ru, en };

export function useFeedbackNavT() {
  const { t } = useBundleT(feedbackNavBundle);
  return (key: keyof (typeof ru)['feedback']) => t(`feedback.${key}`);
}
