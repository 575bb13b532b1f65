import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, Route, Switch, useRoute } from 'wouter';
import { DeliveriesPage } from '../features/deliveries/deliveries-page';
import { ExportsPage } from '../features/exports/exports-page';
import { JobEventsProvider } from '../features/jobs/job-events';
import { AdminOnly } from '../features/team/admin-only';
import { QueuePage } from '../features/queue/queue-page';
import { RulesPage } from '../features/rules/rules-page';
import { OperatorsPage } from '../features/team/operators-page';
import { RequireSession } from '../features/team/require-session';
import { SessionMenu } from '../features/team/session-menu';
import { SetupPage } from '../features/team/setup-page';
import { SignInPage } from '../features/team/sign-in-page';
import { UploadQueueProvider } from '../features/upload/upload-queue-provider';
import { AnalyticsRoute } from './analytics-route';
import { ErrorBoundary } from './error-boundary';
import { QueueLiveUpdates } from './queue-live-updates';
import { ReviewDocumentRoute } from './review-document-route';
import { ModelRulesRoute } from './rules-route';
import { JobRoute } from './job-route';
import { JobsRoute } from './jobs-route';
import { OpenSavedRoute, SavedRoute } from './saved-route';
import { createQueryClient } from './query-client';
import { earlyQueryClient } from './review-data-early';
import { UploadRoute } from './upload-route';
import { V1JobRoute } from './v1-job-route';

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
              <nav aria-label="Main" className="mx-auto flex max-w-screen-2xl items-center gap-6 px-4 py-3">
                <Link href="/" className="text-base font-semibold text-blue-900">
                  Extraction review
                </Link>
                <NavLink href="/">New extraction</NavLink>
                <NavLink href="/jobs">Jobs</NavLink>
                <NavLink href="/open">Open saved</NavLink>
                <NavLink href="/queue">Team queue</NavLink>
                <AdminOnly>
                  <NavLink href="/operators">Operators</NavLink>
                  <NavLink href="/rules">Rules</NavLink>
                  <NavLink href="/deliveries">Deliveries</NavLink>
                  <NavLink href="/exports">Exports</NavLink>
                  <NavLink href="/analytics">Where time goes</NavLink>
                </AdminOnly>
                <div className="ml-auto">
                  <SessionMenu />
                </div>
              </nav>
            </header>
            <ErrorBoundary>
              <Switch>
                {/* The upstream is the team's: these pages are for signed-in operators. */}
                <Route path="/">
                  <RequireSession>
                    <UploadRoute />
                  </RequireSession>
                </Route>
                <Route path="/jobs">
                  <RequireSession>
                    <JobsRoute />
                  </RequireSession>
                </Route>
                <Route path="/jobs/:jobId">
                  {(params) => (
                    <RequireSession>
                      <JobRoute jobId={params.jobId} />
                    </RequireSession>
                  )}
                </Route>
                <Route path="/jobs/v1/:jobId">
                  {(params) => (
                    <RequireSession>
                      <V1JobRoute jobId={params.jobId} />
                    </RequireSession>
                  )}
                </Route>
                <Route path="/open" component={OpenSavedRoute} />
                <Route path="/saved/:key">
                  {(params) => <SavedRoute savedKey={decodeURIComponent(params.key)} />}
                </Route>
                <Route path="/sign-in" component={SignInPage} />
                <Route path="/setup" component={SetupPage} />
                <Route path="/operators" component={OperatorsPage} />
                <Route path="/rules">
                  <RequireSession>
                    <RulesPage />
                  </RequireSession>
                </Route>
                <Route path="/rules/:apiVersion/:model">
                  {(params) => (
                    <RequireSession>
                      <ModelRulesRoute apiVersion={params.apiVersion} model={params.model} />
                    </RequireSession>
                  )}
                </Route>
                <Route path="/deliveries">
                  <RequireSession>
                    <DeliveriesPage />
                  </RequireSession>
                </Route>
                <Route path="/exports">
                  <RequireSession>
                    <ExportsPage />
                  </RequireSession>
                </Route>
                <Route path="/analytics">
                  <RequireSession>
                    <AnalyticsRoute />
                  </RequireSession>
                </Route>
                <Route path="/review/:id">{(params) => <ReviewDocumentRoute documentId={params.id} />}</Route>
                <Route path="/queue">
                  <RequireSession>
                    <QueuePage />
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

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [active] = useRoute(href);
  return (
    <Link
      href={href}
      aria-current={active ? 'page' : undefined}
      className="text-sm text-slate-700 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-blue-900"
    >
      {children}
    </Link>
  );
}
