/**
 * Every route's page, each in a chunk of its own (lazy-page.tsx): the entry chunk holds the app's
 * frame (providers, navigation, session), and an address loads the page it shows on top of it.
 */
import { lazyPage } from './lazy-page';
import { pageFor, type PageName } from '@extraction-review/contract/page-routes';

// One page for every address of page-routes.ts, and no other (the `satisfies` below).
export const pages = {
  upload: lazyPage(() => import('./upload-route').then((m) => m.UploadRoute), 'Loading the upload form…'),
  uploads: lazyPage(() => import('./uploads-route').then((m) => m.UploadsRoute), 'Loading the uploads…'),
  jobs: lazyPage(() => import('./jobs-route').then((m) => m.JobsRoute), 'Loading the uploads…'),
  job: lazyPage(() => import('./job-route').then((m) => m.JobRoute), 'Loading the review…'),
  v1Job: lazyPage(() => import('./v1-job-route').then((m) => m.V1JobRoute), 'Loading the review…'),
  openSaved: lazyPage(() => import('./saved-route').then((m) => m.OpenSavedRoute), 'Loading…'),
  saved: lazyPage(() => import('./saved-route').then((m) => m.SavedRoute), 'Loading the review…'),
  signIn: lazyPage(() => import('../features/team/sign-in-page').then((m) => m.SignInPage), 'Loading…'),
  setup: lazyPage(() => import('../features/team/setup-page').then((m) => m.SetupPage), 'Loading…'),
  setPassword: lazyPage(
    () => import('../features/team/set-password-page').then((m) => m.SetPasswordPage),
    'Loading…',
  ),
  operators: lazyPage(
    () => import('../features/team/operators-page').then((m) => m.OperatorsPage),
    'Loading the operators…',
  ),
  rules: lazyPage(
    () => import('../features/rules/rules-page').then((m) => m.RulesPage),
    'Loading the rules…',
  ),
  modelRules: lazyPage(() => import('./rules-route').then((m) => m.ModelRulesRoute), 'Loading the rules…'),
  deliveries: lazyPage(
    () => import('../features/deliveries/deliveries-page').then((m) => m.DeliveriesPage),
    'Loading the deliveries…',
  ),
  exports: lazyPage(
    () => import('../features/exports/exports-page').then((m) => m.ExportsPage),
    'Loading the exports…',
  ),
  analytics: lazyPage(
    () => import('../features/analytics/analytics-page').then((m) => m.default),
    'Loading where time goes…',
  ),
  reviewDocument: lazyPage(
    () => import('./review-document-route').then((m) => m.ReviewDocumentRoute),
    'Loading the review…',
  ),
  queue: lazyPage(
    () => import('../features/queue/queue-page').then((m) => m.QueuePage),
    'Loading the queue…',
  ),
} satisfies Record<PageName, unknown>;

/**
 * Loads the code of the page an address shows; resolves once it is loaded, or failed to load (the
 * page then shows why, with "Try again"), at once for an address no page shows.
 */
export function preloadPageFor(pathname: string): Promise<void> {
  const page = pageFor(pathname);
  if (page === undefined) return Promise.resolve();
  return pages[page].preload().then(
    () => undefined,
    () => undefined,
  );
}
