import { Component, type ReactNode } from 'react';
import { ErrorState } from '../components/ui/states';
import { ApiError } from '../lib/http';
import { useT } from './messages';

const NOT_FOUND = new ApiError(404, [{ code: 'NotFoundHttpException', status: '404', detail: 'Page not found.' }]);

/** `level={2}` inside a layout that has its own h1 (the admin area). */
export function NotFoundPage({ level = 1 }: { level?: 1 | 2 }) {
  return <ErrorState error={NOT_FOUND} level={level} />;
}

function ReloadButton() {
  const t = useT();
  return (
    <button className="text-sm font-medium text-sky-400" onClick={() => window.location.reload()}>
      {t('app.reload')}
    </button>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** A new value (the next page's path) clears a caught error. */
  resetKey: string;
}

/** Last-resort boundary: a render error or a failed lazy chunk, explained instead of a blank page. */
export class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="p-6">
        <ErrorState error={this.state.error} level={1} action={<ReloadButton />} />
      </div>
    );
  }
}
