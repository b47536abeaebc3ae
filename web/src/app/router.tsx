import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/ui/full-page-loader';
import { ChangePasswordPage } from '../features/account/components/change-password-page';
import { ConfirmEmailPage } from '../features/account/components/confirm-email-page';
import { ForgotPasswordPage } from '../features/account/components/forgot-password-page';
import { RegisterPage } from '../features/account/components/register-page';
import { ResetPasswordPage } from '../features/account/components/reset-password-page';
import { LoginPage } from '../features/auth/components/login-page';
import { ErrorPage } from '../features/errors/components/error-page';
import { NotFoundPage } from '../features/errors/components/not-found-page';
import { RouteError } from '../features/errors/components/route-error';
import { RunnerPage } from '../features/exam-runner/components/runner-page';
import { StartPage } from '../features/exam-runner/components/start-page';
import { UnauthorizedPage } from '../features/errors/components/unauthorized-page';
import { RoleHome } from '../features/homes/components/role-home';
import { setApiNavigator } from '../lib/api-client';
import { basePath } from '../lib/location';
import { HOME_ROLES } from '../lib/roles';
import { AppLayout } from './layouts/app-layout';
import { PublicLayout } from './layouts/public-layout';
import { requireRole, requireUser, rootRedirect } from './routes/guards';

/** Route table, shared by the browser router and by tests (memory router). */
export function createRoutes(queryClient: QueryClient, basename = '/'): RouteObject[] {
  const homes: RouteObject[] = HOME_ROLES.map((role) => ({
    path: role,
    loader: requireRole(queryClient, role, basename),
    element: role === 'participant' ? <StartPage /> : <RoleHome role={role} />,
  }));

  const runner: RouteObject = {
    path: 'participant/work',
    loader: requireRole(queryClient, 'participant', basename),
    element: <RunnerPage />,
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
            { path: 'login', element: <LoginPage /> },
            { path: 'unauthorized', element: <UnauthorizedPage /> },
            { path: 'error', element: <ErrorPage /> },
            { path: 'account/register', element: <RegisterPage /> },
            { path: 'account/confirm', element: <ConfirmEmailPage /> },
            { path: 'account/forgot', element: <ForgotPasswordPage /> },
            { path: 'account/reset', element: <ResetPasswordPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
        {
          id: 'signed-in',
          loader: requireUser(queryClient, basename),
          element: <AppLayout />,
          errorElement: <RouteError />,
          children: [...homes, runner, { path: 'account/password', element: <ChangePasswordPage /> }],
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
