/**
 * What the app server's tests need of the reference service, which they start as a real upstream on
 * 127.0.0.1: they reach it through the test kit, so that neither server package imports the other
 * (docs/architecture.md).
 */
export type { ReferenceService } from '@extraction-review/reference/create-reference-service';
export { webhookPayload } from '@extraction-review/reference/webhooks/payload';
