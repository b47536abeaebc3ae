import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorView } from './error-page';
import { NotFoundPage } from './not-found-page';

/** Router error boundary: a render or loader crash shows the general error page, not a blank screen. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (isRouteErrorResponse(error)) {
    return <ErrorView details={{ status: String(error.status), message: error.statusText }} />;
  }
  console.error(error);
  return <ErrorView details={error instanceof Error ? { code: error.name, message: error.message } : {}} />;
}
