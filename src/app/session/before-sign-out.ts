/**
 * What must happen before signing out (issue 21: an edit made just before "Sign out" was never
 * sent). A page with unsent work (the review's corrections saver) registers how to send it while it
 * is open; signing out waits for every registered task first, then the server releases the documents
 * held and ends the session.
 */
type Task = () => Promise<unknown>;

const tasks = new Set<Task>();

/** How long sign-out waits for the pending work: a server that never answers must not keep it. */
export const BEFORE_SIGN_OUT_WAIT_MS = 10_000;

/** Registers a task to run before signing out; the function returned unregisters it. */
export function beforeSignOut(task: Task): () => void {
  tasks.add(task);
  return () => {
    tasks.delete(task);
  };
}

/**
 * Runs every registered task, all at once, and waits for them to end (or for `waitMs`). A task that
 * fails does not stop the sign-out: a refused save (the document was taken over meanwhile) can never
 * be sent, and one the network lost would fail the sign-out's own request too.
 */
export async function runBeforeSignOut(waitMs = BEFORE_SIGN_OUT_WAIT_MS): Promise<void> {
  if (tasks.size === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  const all = Promise.allSettled([...tasks].map((task) => task())).then(() => undefined);
  await Promise.race([all, timeout]);
  clearTimeout(timer);
}
