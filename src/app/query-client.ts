import { QueryClient } from '@tanstack/react-query';
import { isRetryableError } from '../api/errors';

/**
 * The one retry policy of the app. The HTTP layer already waits out 429s (Retry-After) and retries
 * idempotent requests on network errors and 5xx; on top of that a query gets one more chance for
 * those same transient failures. Other 4xx and schema mismatches are never retried: repeating them
 * cannot succeed and would only delay the message the operator needs.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < 1 && isRetryableError(error),
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
