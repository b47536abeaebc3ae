/**
 * Feedback's pages, mounted by the app layer: «Мои обращения» for every signed-in user
 * (`/account/feedback`) and the admins' inbox (`/admin/feedback`, under the admin guard).
 */
import type { RouteObject } from 'react-router';
import { useFeedbackNavT } from './nav-locales';
import { lazyPage } from '../../components/ui/lazy-page';

const FeedbackInboxPage = lazyPage(() => import('./components/feedback-inbox-page'), 'FeedbackInboxPage');
const MyFeedbackPage = lazyPage(() => import('./components/my-feedback-page'), 'MyFeedbackPage');

export { FeedbackButton } from './components/feedback-button';

/** A child of the signed-in layout. */
export const myFeedbackRoute: RouteObject = { path: 'account/feedback', element: <MyFeedbackPage /> };

/** Children of the `/admin` route. «Мои обращения» is opened from the feedback modal and from the notification of an answer. */
export const feedbackAdminRoutes: RouteObject[] = [{ path: 'feedback', element: <FeedbackInboxPage /> }];

export function useFeedbackNavItems() {
  const t = useFeedbackNavT();
  return { admin: [{ to: '/admin/feedback', label: t('inboxNav') }] };
}
