import { Suspense, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/ui/spinner';
import { RouteErrorBoundary } from './not-found-page';

/** An error and loading boundary: a failed page (or chunk) is explained inside the frame around it. */
export function Boundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageSpinner />}>{children}</Suspense>
    </RouteErrorBoundary>
  );
}

/** The child route inside its own boundary, so the header and navigation around it stay. */
export function BoundedOutlet() {
  return (
    <Boundary>
      <Outlet />
    </Boundary>
  );
}
