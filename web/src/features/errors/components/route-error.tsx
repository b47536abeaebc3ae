import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorView } from './error-page';
import { NotFoundPage } from './not-found-page';

/**
 * Router error boundary: a render or loader crash shows the general error page, not a blank screen.
 * The page says what happened in the user's language only; the status text of a response or an
 * exception's message (English, for developers) goes to the console.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  if (isRouteErrorResponse(error)) return <ErrorView details={{ status: String(error.status) }} crashed />;
  return <ErrorView details={{}} crashed />;
}
