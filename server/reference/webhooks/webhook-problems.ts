/**
 * The problem details a webhook delivery records in its `error` (spec §7.1: "Webhook call failures
 * appear in the error of the matching WebhookResponse"), in one place.
 *
 * Codes: docs/errors.md.
 */
import { ProblemError, type ProblemBody } from '@extraction-review/contract/problem';

const CODES = {
  deliveryFailed: '502-003',
  timedOut: '504-002',
  endpointNotFound: '404-005',
  invalidUrl: '422-006',
  interrupted: '500-001',
} as const;

export const webhookProblems = {
  deliveryFailed: (detail: string): ProblemBody => new ProblemError(CODES.deliveryFailed, detail).toBody(),
  timedOut: (detail: string): ProblemBody => new ProblemError(CODES.timedOut, detail).toBody(),
  endpointNotFound: (detail: string): ProblemBody =>
    new ProblemError(CODES.endpointNotFound, detail).toBody(),
  invalidUrl: (detail: string): ProblemBody => new ProblemError(CODES.invalidUrl, detail).toBody(),
  interrupted: (detail: string): ProblemBody => new ProblemError(CODES.interrupted, detail).toBody(),
};
