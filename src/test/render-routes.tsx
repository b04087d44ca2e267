import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import {
  MemoryRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  useRoutes,
  type Location,
  type NavigateOptions,
  type NavigationType,
  type RouteObject,
  type To,
} from 'react-router';

/** What tests read and drive: the current location, and navigation as if from outside the page. */
export interface TestRouter {
  state: { location: Location; historyAction: NavigationType };
  navigate: (to: To | number, options?: NavigateOptions) => Promise<void>;
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

function Spy({ router }: { router: TestRouter }) {
  const location = useLocation();
  const historyAction = useNavigationType();
  const navigate = useNavigate();
  router.state = { location, historyAction };
  router.navigate = async (to, options) => {
    await act(async () => {
      if (typeof to === 'number') await navigate(to);
      else await navigate(to, options);
    });
  };
  return null;
}

/**
 * Renders `routes` at `path` the way the app does (a query client, a router) for component tests;
 * `seed` may put data into the cache first. Retries are off so failures show at once.
 */
export function renderRoutes(routes: RouteObject[], path: string, seed?: (client: QueryClient) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  seed?.(client);
  const router = {} as TestRouter;
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes routes={routes} />
        <Spy router={router} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, router, client };
}
