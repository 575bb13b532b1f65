import type { ReactNode } from 'react';
import { useIsAdmin } from './use-session';

/** Renders its children for a signed-in admin only (the header's admin links); nothing otherwise. */
export function AdminOnly({ children }: { children: ReactNode }) {
  return useIsAdmin() ? children : null;
}
