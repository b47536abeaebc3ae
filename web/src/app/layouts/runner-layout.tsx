/**
 * The runner's own shell (docs/design.md, "Locked delivery"): no portal header, sidebar, language
 * switch, notifications or session countdown around a sitting — the runner draws its own header
 * (test, timer, save status, tools, finish). The app composes here what the runner may not import:
 * the help and feedback buttons, given to it as its tools. In the app shell (`AttestaApp/` in the
 * user agent) the shell is a kiosk: it fills the screen and has no way out but the finish.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullPageLoader } from '../../components/ui/full-page-loader';
import { FeedbackButton } from '../../features/feedback/routes';
import { HelpButton } from '../../features/help/components/help-button';
import { isAppShell } from '../../lib/device';
import { currentUserQuery } from '../../lib/session';
import { NavigationProgress } from './navigation-progress';
import { SkipLink } from './skip-link';

export function RunnerLayout() {
  return (
    <div className="runner-shell" data-kiosk={isAppShell() || undefined} data-testid="runner-shell">
      <SkipLink />
      <NavigationProgress />
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
    </div>
  );
}

/** Help and feedback in the runner's header. */
export function RunnerTools() {
  const { data: user } = useSuspenseQuery(currentUserQuery());
  return (
    <>
      <HelpButton />
      <FeedbackButton userId={user.id} />
    </>
  );
}
