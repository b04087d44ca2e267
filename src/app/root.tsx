import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { onUnauthorized } from '../lib/http';
import { queryClient } from './query-client';
import { signInPath } from './paths';

/** Root route: a 401 anywhere returns to sign-in, keeping the URL the user was on. */
export function Root() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(
    () =>
      onUnauthorized(() => {
        if (location.pathname.startsWith('/auth/')) return;
        queryClient.clear();
        navigate(signInPath(location.pathname + location.search + location.hash), { replace: true });
      }),
    [navigate, location],
  );
  return <Outlet />;
}
