import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Switch } from 'wouter';
import { JobRoute } from './job-route';
import { ErrorBoundary } from './error-boundary';
import { createQueryClient } from './query-client';
import { UploadRoute } from './upload-route';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <div className="flex min-h-screen flex-col">
        <header className="border-b border-slate-200 bg-white">
          <nav aria-label="Main" className="mx-auto flex max-w-screen-2xl items-center gap-6 px-4 py-3">
            <Link href="/" className="text-base font-semibold text-blue-900">
              Extraction review
            </Link>
            <Link href="/" className="text-sm text-slate-700 hover:underline">
              New extraction
            </Link>
          </nav>
        </header>
        <ErrorBoundary>
          <Switch>
            <Route path="/" component={UploadRoute} />
            <Route path="/jobs/:jobId">{(params) => <JobRoute jobId={params.jobId} />}</Route>
            <Route>
              <main className="mx-auto max-w-2xl p-8">
                <h1 className="text-xl font-semibold">Page not found</h1>
                <p className="mt-2">
                  <Link href="/" className="underline">
                    Start a new extraction
                  </Link>
                </p>
              </main>
            </Route>
          </Switch>
        </ErrorBoundary>
      </div>
    </QueryClientProvider>
  );
}
