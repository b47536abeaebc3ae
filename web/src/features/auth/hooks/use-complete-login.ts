import type { LoginResponse } from '@attesta/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { rememberTokenIfAppShell } from '../../../lib/auth-token';
import { safeReturnUrl } from '../../../lib/location';
import { homePathFor } from '../../../lib/roles';
import { currentUserQueryKey, rememberUser, sessionTimeQueryKey } from '../../../lib/session';

/**
 * After a successful login: the session cookie is already set by the server; the user goes into
 * the cache (the guard will not ask again), and the browser goes back where it came from or home.
 */
export function useCompleteLogin() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return useCallback(
    async (answer: LoginResponse) => {
      // Whatever was cached belonged to the previous session.
      queryClient.clear();
      queryClient.setQueryData(currentUserQueryKey, answer.user);
      rememberUser(answer.user);
      queryClient.setQueryData(sessionTimeQueryKey, new Date(answer.expiresAt));
      rememberTokenIfAppShell(answer.token);
      await navigate(safeReturnUrl(params.get('returnUrl')) ?? homePathFor(answer.user.roles), {
        replace: true,
      });
    },
    [navigate, params, queryClient],
  );
}
