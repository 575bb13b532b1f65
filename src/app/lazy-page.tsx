/**
 * A route's page in a chunk of its own, loaded on demand: an address loads only the code of the page
 * it shows (a review's address, for one, no upload form, rules editor or operators table, whose
 * parsing and running on the main thread would delay page 1 and the pdf.js worker's start beside it).
 */
import {
  Component,
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { ProblemAlert } from '../components/problem-alert';
import { Spinner } from '../components/ui/spinner';

interface PageModule<P> {
  default: ComponentType<P>;
}

export interface LazyPage<P extends object> {
  /** The page: a spinner while its code loads, a message with "Try again" if it cannot be loaded. */
  Page: ComponentType<P>;
  /** Starts loading the page's code; resolves once it is loaded (rejects if it could not be). */
  preload: () => Promise<unknown>;
}

/** Raised for a page whose code could not be loaded, so its boundary tells it from a rendering bug. */
class PageLoadError extends Error {
  constructor(cause: unknown) {
    super('The code of this page could not be loaded.', { cause });
    this.name = 'PageLoadError';
  }
}

export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
  label: string,
): LazyPage<P> {
  let loading: Promise<PageModule<P>> | undefined;
  let loaded: PageModule<P> | undefined;
  const start = () =>
    (loading ??= load().then(
      (page) => (loaded = { default: page }),
      (error: unknown) => {
        loading = undefined; // loaded again by "Try again"
        throw new PageLoadError(error);
      },
    ));
  // Once loaded (preloaded before the first render, say), a thenable that calls back at once, which
  // `lazy` reads without suspending: a suspended page would show its spinner and then be held back
  // for up to 300 ms (React throttles Suspense reveals, FALLBACK_THROTTLE_MS in react-dom).
  const forLazy = (): Promise<PageModule<P>> => {
    const page = loaded;
    if (!page) return start();
    const fulfilled = {
      then(onFulfilled?: (value: PageModule<P>) => unknown) {
        onFulfilled?.(page);
        return fulfilled;
      },
    };
    return fulfilled as unknown as Promise<PageModule<P>>;
  };
  // `lazy` keeps a failed load for good: "Try again" makes a new one.
  let Lazy = lazy(forLazy);

  function Page(props: P) {
    const [, setAttempt] = useState(0);
    return (
      <PageLoadBoundary
        onRetry={() => {
          Lazy = lazy(forLazy);
          setAttempt((n) => n + 1);
        }}
      >
        <Suspense
          fallback={
            <main className="mx-auto w-full max-w-5xl p-6">
              <Spinner label={label} />
            </main>
          }
        >
          <Lazy {...props} />
        </Suspense>
      </PageLoadBoundary>
    );
  }
  return { Page, preload: start };
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

/** Shows a page that could not be loaded (offline, or the app updated meanwhile); anything else goes up. */
class PageLoadBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    if (error instanceof PageLoadError)
      console.error('A page could not be loaded', error.cause, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // A rendering bug of the page itself is the outer boundaries' to show.
    if (!(error instanceof PageLoadError)) throw error;
    return (
      <main className="mx-auto max-w-2xl p-8">
        <ProblemAlert
          error={{
            title: 'This page could not be loaded',
            detail:
              'Its code did not arrive from the app server (the connection dropped, or the app was updated).',
          }}
          action={
            <>
              Try again; if it fails again,{' '}
              <a className="underline" href={location.href}>
                reload the page
              </a>
              .
            </>
          }
        />
        <button
          type="button"
          onClick={() => {
            this.setState({ error: null });
            this.props.onRetry();
          }}
          className="mt-3 rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          Try again
        </button>
      </main>
    );
  }
}
