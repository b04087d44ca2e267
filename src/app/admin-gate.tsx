import { lazy } from 'react';
import { useAccount } from './require-auth';
import { NotFoundPage } from './not-found-page';

// Its own chunk, fetched only once a root admin opens /admin: nobody else downloads admin code.
const AdminLayout = lazy(() => import('./admin-layout').then((m) => ({ default: m.AdminLayout })));

/** `/admin/*`: the admin area for root admins; for anyone else the same page as an unknown URL, asking the API nothing. */
export function AdminGate() {
  const account = useAccount();
  return account.admin ? <AdminLayout /> : <NotFoundPage />;
}
