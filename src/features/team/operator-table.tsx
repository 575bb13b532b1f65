import { useQuery } from '@tanstack/react-query';
import { operatorsQueryOptions } from '../../api/review/queries';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { sessionAction } from './field-problems';
import { RemoveOperatorButton } from './remove-operator-button';
import { AccessStatus, DeactivateButton, PasswordLinkButton, RoleSelect } from './operator-access';
import { useRecheckSessionOn } from '../../app/session/use-session';
import { formatDate } from '../../lib/format';

interface Props {
  /** The admin looking: their own row has no "Remove" nor "Deactivate" (the server refuses them anyway). */
  me: OperatorView;
  /** An operator was removed: their row, and the focused button with it, are gone. */
  onRemoved: () => void;
}

export function OperatorTable({ me, onRemoved }: Props) {
  const operators = useQuery(operatorsQueryOptions());
  useRecheckSessionOn(operators.error);
  if (operators.isPending) return <Spinner label="Loading the operators…" />;
  if (operators.isError)
    return (
      <ProblemAlert
        error={operators.error}
        action={sessionAction(operators.error)}
        onRetry={() => void operators.refetch()}
      />
    );

  const cell = 'border-b border-slate-200 px-3 py-2 align-top';
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Operators, by name</caption>
        <thead className="bg-slate-50 text-xs text-slate-600 uppercase">
          <tr>
            <th scope="col" className={cell}>
              Name
            </th>
            <th scope="col" className={cell}>
              Role
            </th>
            <th scope="col" className={cell}>
              Status
            </th>
            <th scope="col" className={cell}>
              Password
            </th>
            <th scope="col" className={cell}>
              Added
            </th>
            <th scope="col" className={cell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {operators.data.operators.map((operator) => (
            <tr key={operator.id}>
              <th scope="row" className={`${cell} font-medium`}>
                {operator.name}
                {operator.id === me.id && <span className="ml-1 font-normal text-slate-600">(you)</span>}
              </th>
              <td className={cell}>
                <RoleSelect operator={operator} />
              </td>
              <td className={cell}>
                <AccessStatus operator={operator} />
              </td>
              <td className={cell}>
                {operator.hasPassword ? (
                  'yes'
                ) : (
                  <>
                    no <span className="text-slate-600">(single sign-on only)</span>
                  </>
                )}
              </td>
              <td className={`${cell} whitespace-nowrap`}>
                <time dateTime={operator.createdAt}>{formatDate(operator.createdAt)}</time>
              </td>
              <td className={`${cell} text-right`}>
                {/* One line of actions; a link or a question opens under its own button. */}
                <div className="flex flex-wrap items-start justify-end gap-1">
                  <PasswordLinkButton operator={operator} />
                  {operator.id !== me.id && (
                    <>
                      <DeactivateButton operator={operator} />
                      <RemoveOperatorButton operator={operator} onRemoved={onRemoved} />
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
