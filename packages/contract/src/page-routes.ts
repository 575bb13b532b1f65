/**
 * The addresses of the app's pages, as the router in app.tsx declares them (wouter path patterns),
 * and how an address is matched to one. Plain data and one function, with no import: the browser
 * uses it to load a page's code early (pages.ts), and the app server (server/app/static/serve-app.ts)
 * to tell a page of the app (answered with index.html) from any other path (a 404 problem).
 *
 * server/app/static/page-routes.test.ts checks that this list and app.tsx's `<Route path>`s are the
 * same set: a page added to the router and not here is a test failure, not a silent 404.
 */
export const PAGE_ROUTES = {
  upload: '/',
  uploads: '/uploads',
  jobs: '/jobs',
  v1Job: '/jobs/v1/:jobId',
  job: '/jobs/:jobId',
  openSaved: '/open',
  saved: '/saved/:key',
  signIn: '/sign-in',
  setup: '/setup',
  setPassword: '/set-password',
  operators: '/operators',
  rules: '/rules',
  modelRules: '/rules/:apiVersion/:model',
  deliveries: '/deliveries',
  exports: '/exports',
  analytics: '/analytics',
  reviewDocument: '/review/:id',
  queue: '/queue',
} as const;

export type PageName = keyof typeof PAGE_ROUTES;

/**
 * A route pattern as wouter matches it (its `regexparam` parser, loose off): `:name` is one non-empty
 * segment, a trailing slash is optional, letters match in either case.
 */
function patternOf(route: string): RegExp {
  const segments = route
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) =>
      segment.startsWith(':') ? '/([^/]+?)' : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    );
  return new RegExp(`^${segments.join('')}/?$`, 'i');
}

/** Most specific first, as the router's order puts `/jobs/v1/:jobId` before `/jobs/:jobId`. */
const MATCHERS: readonly (readonly [RegExp, PageName])[] = (
  Object.entries(PAGE_ROUTES) as [PageName, string][]
).map(([name, route]) => [patternOf(route), name] as const);

/** The page an address (a URL's pathname) shows, or undefined when no page does. */
export function pageFor(pathname: string): PageName | undefined {
  return MATCHERS.find(([pattern]) => pattern.test(pathname))?.[1];
}
