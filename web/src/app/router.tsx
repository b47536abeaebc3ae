import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/ui/full-page-loader';
import { adminContentOverviewRoute, adminRoutes } from '../features/admin/routes';
import { contentRoutes } from '../features/content/routes';
import { coordinatorRoutes, organizatorRoutes } from '../features/school/routes';
import { LoginPage } from '../features/auth/components/login-page';
import { ErrorPage } from '../features/errors/components/error-page';
import { NotFoundPage } from '../features/errors/components/not-found-page';
import { RouteError } from '../features/errors/components/route-error';
import { participantLanding } from '../features/exam-runner/landing';
import { UnauthorizedPage } from '../features/errors/components/unauthorized-page';
import { ugnikRoutes } from '../features/ugnik/routes';
import { expertRoutes } from '../features/expert/routes';
import { resultsRoutes, verifyRoute } from '../features/results/routes';
import { reportsRoutes } from '../features/reports/routes';
import { feedbackAdminRoutes, myFeedbackRoute } from '../features/feedback/routes';
import { rosterRoutes } from '../features/roster/routes';
import { scansRoutes } from '../features/scans/routes';
import { roomRoutes } from './routes/room';
import { setApiNavigator } from '../lib/api-client';
import { basePath } from '../lib/location';
import { HOME_ROLES, type HomeRole } from '../lib/roles';
import { AppLayout } from './layouts/app-layout';
import { PublicLayout } from './layouts/public-layout';
import { RunnerLayout, RunnerTools } from './layouts/runner-layout';
import { loginRedirect, requireRole, requireSitting, requireUser, rootRedirect } from './routes/guards';
import { lazyPage } from '../components/ui/lazy-page';

// What a participant never opens loads when it is first shown (docs/ARCHITECTURE.md).
const ResetPasswordPage = lazyPage(
  () => import('../features/account/components/reset-password-page'),
  'ResetPasswordPage',
);
const RegisterPage = lazyPage(() => import('../features/account/components/register-page'), 'RegisterPage');
const ForgotPasswordPage = lazyPage(
  () => import('../features/account/components/forgot-password-page'),
  'ForgotPasswordPage',
);
const ConfirmEmailPage = lazyPage(
  () => import('../features/account/components/confirm-email-page'),
  'ConfirmEmailPage',
);
const ChangePasswordPage = lazyPage(
  () => import('../features/account/components/change-password-page'),
  'ChangePasswordPage',
);
const RoleHome = lazyPage(() => import('../features/homes/components/role-home'), 'RoleHome');
/**
 * The participant's start page and runner (features/exam-runner/participant-screens.ts): a chunk
 * loaded with the route, so the login page does not wait for them (issue 24, docs/ARCHITECTURE.md).
 */
const participantScreens = () => import('../features/exam-runner/participant-screens');

const OpenTestsHome = lazyPage(
  () => import('../features/open-tests/components/open-tests-home'),
  'OpenTestsHome',
);

/** Work places of a role: pages under its home, guarded by the home's role loader. */
const WORK_PLACES: Partial<Record<HomeRole, RouteObject[]>> = {
  admin: [
    ...adminRoutes,
    ...contentRoutes([adminContentOverviewRoute]),
    ...resultsRoutes.admin,
    ...reportsRoutes.admin,
    ...rosterRoutes.admin,
    ...scansRoutes.admin,
    ...feedbackAdminRoutes,
  ],
  ugnik: [...ugnikRoutes, ...reportsRoutes.ugnik],
  coordinator: [
    ...coordinatorRoutes,
    ...resultsRoutes.coordinator,
    ...reportsRoutes.coordinator,
    ...rosterRoutes.coordinator,
    ...scansRoutes.coordinator,
  ],
  organizator: [...organizatorRoutes, ...scansRoutes.organizator, ...reportsRoutes.organizator],
  expert: expertRoutes,
  participant: resultsRoutes.participant,
  guest: resultsRoutes.guest,
};

/** Route table, shared by the browser router and by tests (memory router). */
export function createRoutes(queryClient: QueryClient, basename = '/'): RouteObject[] {
  const homes: RouteObject[] = HOME_ROLES.map((role) => ({
    path: role,
    loader: requireRole(queryClient, role, basename),
    children: [
      role === 'participant'
        ? { index: true, lazy: async () => ({ Component: (await participantScreens()).StartPage }) }
        : {
            index: true,
            element: <RoleHome role={role}>{role === 'guest' && <OpenTestsHome />}</RoleHome>,
          },
      ...(WORK_PLACES[role] ?? []),
    ],
  }));

  // The runner has its own shell, not the portal's: no navigation around a sitting.
  const runner: RouteObject = {
    element: <RunnerLayout />,
    children: [
      {
        path: 'participant/work',
        loader: requireSitting(queryClient, basename),
        lazy: async () => {
          const { RunnerPage } = await participantScreens();
          return { Component: () => <RunnerPage tools={<RunnerTools />} /> };
        },
      },
    ],
  };

  return [
    {
      id: 'root',
      element: <Outlet />,
      errorElement: (
        <PublicLayout>
          <RouteError />
        </PublicLayout>
      ),
      hydrateFallbackElement: <FullPageLoader />,
      children: [
        { index: true, loader: rootRedirect(queryClient) },
        {
          element: <PublicLayout />,
          errorElement: <RouteError />,
          children: [
            {
              path: 'login',
              loader: loginRedirect(queryClient, participantLanding),
              // Asked on arrival only: switching the tab (`?tab=`) is no new visit.
              shouldRevalidate: () => false,
              element: <LoginPage />,
            },
            { path: 'unauthorized', element: <UnauthorizedPage /> },
            { path: 'error', element: <ErrorPage /> },
            { path: 'account/register', element: <RegisterPage /> },
            { path: 'account/confirm', element: <ConfirmEmailPage /> },
            { path: 'account/forgot', element: <ForgotPasswordPage /> },
            { path: 'account/reset', element: <ResetPasswordPage /> },
            verifyRoute,
            { path: '*', element: <NotFoundPage /> },
          ],
        },
        {
          id: 'signed-in',
          loader: requireUser(queryClient, basename),
          errorElement: <RouteError />,
          children: [
            {
              element: <AppLayout />,
              children: [
                ...homes,
                { path: 'account/password', element: <ChangePasswordPage /> },
                myFeedbackRoute,
                ...roomRoutes(queryClient, basename),
              ],
            },
            runner,
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  const basename = basePath();
  const router = createBrowserRouter(createRoutes(queryClient, basename), {
    basename: basename === '/' ? undefined : basename.replace(/\/$/, ''),
  });
  // Failed calls move inside the SPA: no reload, the query cache and the app stay as they are.
  setApiNavigator(
    (to) => void router.navigate(to),
    () => {
      const { pathname, search, hash } = router.state.location;
      return `${pathname}${search}${hash}`;
    },
  );
  return router;
}
