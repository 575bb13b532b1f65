import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Switch } from 'wouter';
import { JobEventsProvider } from '../features/jobs/job-events';
import { RequireSession } from './session/require-session';
import { UploadQueueProvider } from '../features/upload/upload-queue-provider';
import { ErrorBoundary } from './error-boundary';
import { MainNav } from './main-nav';
import { QueueLiveUpdates } from './queue-live-updates';
import { pages } from './pages';
import { createQueryClient } from './query-client';
import { earlyQueryClient } from './review-data-early';

export function App() {
  // On a review's address, the client its data was asked for on before the first render.
  const [queryClient] = useState(() => earlyQueryClient() ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      {/* Above the routes: job events and uploads carry on whichever page is open. */}
      <JobEventsProvider>
        <UploadQueueProvider>
          <QueueLiveUpdates />
          <div className="flex min-h-screen flex-col">
            <header className="border-b border-slate-200 bg-white">
              <MainNav />
            </header>
            {/* Each page's code is loaded when its address is opened (pages.ts). */}
            <ErrorBoundary>
              <Switch>
                {/* The upstream is the team's: these pages are for signed-in operators. */}
                <Route path="/">
                  <RequireSession>
                    <pages.upload.Page />
                  </RequireSession>
                </Route>
                <Route path="/uploads">
                  <RequireSession>
                    <pages.uploads.Page />
                  </RequireSession>
                </Route>
                <Route path="/jobs" component={pages.jobs.Page} />
                <Route path="/jobs/:jobId">
                  {(params) => (
                    <RequireSession>
                      <pages.job.Page jobId={params.jobId} />
                    </RequireSession>
                  )}
                </Route>
                <Route path="/jobs/v1/:jobId">
                  {(params) => (
                    <RequireSession>
                      <pages.v1Job.Page jobId={params.jobId} />
                    </RequireSession>
                  )}
                </Route>
                <Route path="/open" component={pages.openSaved.Page} />
                <Route path="/saved/:key">
                  {(params) => <pages.saved.Page savedKey={decodeURIComponent(params.key)} />}
                </Route>
                <Route path="/sign-in" component={pages.signIn.Page} />
                <Route path="/setup" component={pages.setup.Page} />
                <Route path="/set-password" component={pages.setPassword.Page} />
                <Route path="/operators" component={pages.operators.Page} />
                <Route path="/rules">
                  <RequireSession>
                    <pages.rules.Page />
                  </RequireSession>
                </Route>
                <Route path="/rules/:apiVersion/:model">
                  {(params) => (
                    <RequireSession>
                      <pages.modelRules.Page apiVersion={params.apiVersion} model={params.model} />
                    </RequireSession>
                  )}
                </Route>
                <Route path="/deliveries">
                  <RequireSession>
                    <pages.deliveries.Page />
                  </RequireSession>
                </Route>
                <Route path="/exports">
                  <RequireSession>
                    <pages.exports.Page />
                  </RequireSession>
                </Route>
                <Route path="/analytics">
                  <RequireSession>
                    <pages.analytics.Page />
                  </RequireSession>
                </Route>
                <Route path="/review/:id">
                  {(params) => <pages.reviewDocument.Page documentId={params.id} />}
                </Route>
                <Route path="/queue">
                  <RequireSession>
                    <pages.queue.Page />
                  </RequireSession>
                </Route>
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
        </UploadQueueProvider>
      </JobEventsProvider>
    </QueryClientProvider>
  );
}
