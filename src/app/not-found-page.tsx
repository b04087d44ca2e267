import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorState } from '../components/ui/states';
import { ApiError } from '../lib/http';

const NOT_FOUND = new ApiError(404, [{ code: 'NotFoundHttpException', status: '404', detail: 'Page not found.' }]);

export function NotFoundPage() {
  return <ErrorState error={NOT_FOUND} level={1} />;
}

/** Last-resort boundary: a render error or a failed lazy chunk, explained instead of a blank page. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <div className="p-6">
      <ErrorState
        error={error}
        level={1}
        action={
          <button className="text-sm font-medium text-sky-400" onClick={() => window.location.reload()}>
            Reload
          </button>
        }
      />
    </div>
  );
}
