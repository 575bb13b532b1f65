/** The review vocabulary, from the API schemas the browser shares (src/api/review/schemas.ts). */
export type { ApiVersion, Decision, DocumentState, OperatorRole } from '../../src/api/review/schemas';
