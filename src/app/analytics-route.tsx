/**
 * `/analytics`, loaded on demand: the dashboard and its chart library (recharts) come in their own
 * chunk the first time an admin opens the page, never in the entry chunk every page loads.
 */
import { lazy, Suspense } from 'react';
import { Spinner } from '../components/ui/spinner';

const AnalyticsPage = lazy(() => import('../features/analytics/analytics-page'));

export function AnalyticsRoute() {
  return (
    <Suspense
      fallback={
        <main className="mx-auto w-full max-w-5xl p-6">
          <Spinner label="Loading where time goes…" />
        </main>
      }
    >
      <AnalyticsPage />
    </Suspense>
  );
}
