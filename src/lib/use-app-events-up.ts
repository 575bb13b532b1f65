/**
 * Whether this tab's event stream is open now (app-events.ts): the queue lists poll only while it is
 * not, since the events say what changed while it is.
 */
import { useSyncExternalStore } from 'react';
import { appEventsUp, subscribeToAppEventsStatus } from '../api/v2/app-events';

export function useAppEventsUp(): boolean {
  return useSyncExternalStore(subscribeToAppEventsStatus, appEventsUp, () => false);
}
