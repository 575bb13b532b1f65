/** The review vocabulary, from the API schemas the browser shares (packages/contract/src/review/schemas.ts). */
export type {
  ApiVersion,
  Decision,
  DocumentState,
  OperatorRole,
} from '@extraction-review/contract/review/schemas';
