import { ProblemError } from '@extraction-review/contract/problem';
import { isUuid } from '@extraction-review/contract/common-schemas';

// Any 8-4-4-4-12 hexadecimal id, in either case (isUuid): the hosted service's recorded ids are not all
// RFC 4122 (fixtures v2/job/*.json), so the version and variant digits are not checked.
export { isUuid };

/** The path parameter as a lower-case id, or a 422 problem. */
export function uuidParam(name: string, value: string): string {
  if (!isUuid(value)) {
    throw new ProblemError('422-004', `${name} must be a valid UUID format, got "${value}".`, {
      errors: [{ pointer: null, detail: `${name} must be a valid UUID format` }],
    });
  }
  return value.toLowerCase();
}
