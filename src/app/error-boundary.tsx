import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ProblemAlert } from '../components/problem-alert';

interface State {
  error: unknown;
}

/** The last line of defence: an unexpected render error shows a message, never a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unexpected error while rendering', error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <main className="mx-auto max-w-2xl p-8">
          <ProblemAlert
            error={this.state.error}
            action={
              <a className="underline" href="/">
                Back to the start page
              </a>
            }
          />
        </main>
      );
    }
    return this.props.children;
  }
}
