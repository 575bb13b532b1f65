/**
 * Who documents may be assigned to (bulk `assign`, "Hand to"): an operator named by id or name, and
 * active. A deactivated operator is refused (422-016) rather than given work they cannot sign in to
 * do; a removed one is not found (404-012).
 */
import { ProblemError } from '@extraction-review/contract/problem';
import type { OperatorRow } from '../db/schema';
import type { OperatorStore } from '../store/operator-store';

export async function findAssignee(
  operators: Pick<OperatorStore, 'findById' | 'findByName'>,
  operator: string,
): Promise<OperatorRow> {
  const target = (await operators.findById(operator)) ?? (await operators.findByName(operator));
  if (target === undefined) throw new ProblemError('404-012', `No operator ${JSON.stringify(operator)}.`);
  if (target.deactivated_at !== null) {
    throw new ProblemError(
      '422-016',
      `${target.name} is deactivated: documents cannot be assigned to them. Reactivate them first, or choose another operator.`,
      { errors: [{ pointer: '#/operator', detail: `${target.name} is deactivated.` }] },
    );
  }
  return target;
}
