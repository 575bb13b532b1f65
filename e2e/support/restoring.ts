/**
 * Runs a journey that changes what other journeys share (a model's rules, its gate), then puts it
 * back whatever happened. When the journey fails, its own error is the one reported: a `finally`
 * whose restore also throws (as every call does once the test's time is up) would report the restore
 * instead, and hide where the journey stopped.
 */
export async function restoring(journey: () => Promise<void>, restore: () => Promise<void>): Promise<void> {
  try {
    await journey();
  } catch (error) {
    await restore().catch((restoreError: unknown) => {
      console.error('The restore after the failed journey failed too:', restoreError);
    });
    throw error;
  }
  await restore();
}
