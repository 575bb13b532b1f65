/**
 * What an admin changes of an operator's access from the Operators page (issue 21: role and password
 * needed the command line): the role, a one-time password link, and deactivation. The server keeps
 * the rules (the last active admin stays one, an admin does not deactivate themself); its refusals
 * are shown where they happened.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { operatorsQueryOptions } from '../../api/review/queries';
import type { OperatorRole, OperatorView, SessionResponse } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { formatDateTime } from '../../lib/format';
import { createPasswordLink, updateOperatorAccess } from './access-endpoints';
import { sessionAction } from './field-problems';
import { useRecheckSessionOn } from '../../app/session/use-session';
import { reviewKeys } from '../../api/keys';

const isActive = (operator: OperatorView) => operator.deactivatedAt == null;

/** Changes an operator's access, then reads the list (and, for oneself, the session) again. */
function useAccessChange(operator: OperatorView) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (change: { role?: OperatorRole; active?: boolean }) =>
      updateOperatorAccess(operator.id, {
        role: change.role ?? operator.role,
        active: change.active ?? isActive(operator),
      }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: operatorsQueryOptions().queryKey });
      // One's own role changed: the session is read again, so the pages shown follow it.
      const session = queryClient.getQueryData<SessionResponse | null>(reviewKeys.session());
      if (session?.operator.id === operator.id)
        await queryClient.invalidateQueries({ queryKey: reviewKeys.session() });
    },
  });
  useRecheckSessionOn(mutation.error);
  return mutation;
}

/** The role, as a select that saves when changed. */
export function RoleSelect({ operator }: { operator: OperatorView }) {
  const change = useAccessChange(operator);
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="sr-only">
        Role of {operator.name}
      </label>
      <select
        id={id}
        value={change.isPending ? (change.variables.role ?? operator.role) : operator.role}
        disabled={change.isPending}
        onChange={(event) => change.mutate({ role: event.target.value as OperatorRole })}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        <option value="operator">Operator</option>
        <option value="admin">Admin</option>
      </select>
      {change.isError && <ProblemAlert error={change.error} action={sessionAction(change.error)} />}
    </div>
  );
}

/** Active, or since when deactivated. */
export function AccessStatus({ operator }: { operator: OperatorView }) {
  if (operator.deactivatedAt == null) return <span>Active</span>;
  return (
    <span className="text-slate-700">
      Deactivated{' '}
      <time dateTime={operator.deactivatedAt} className="text-slate-600">
        {formatDateTime(operator.deactivatedAt)}
      </time>
    </span>
  );
}

type Step = 'idle' | 'confirming' | 'kept';

/**
 * "Deactivate", then a confirmation (their sessions end and their documents go back to the queue);
 * "Reactivate" at once.
 */
export function DeactivateButton({ operator }: { operator: OperatorView }) {
  const change = useAccessChange(operator);
  const [step, setStep] = useState<Step>('idle');
  if (!isActive(operator))
    return (
      <div className="flex flex-col items-end gap-2">
        <Button
          variant="ghost"
          className="px-2 py-1 text-xs whitespace-nowrap"
          aria-label={`Reactivate ${operator.name}`}
          disabled={change.isPending}
          onClick={() => change.mutate({ active: true })}
        >
          {change.isPending ? 'Reactivating…' : 'Reactivate'}
        </Button>
        {change.isError && <ProblemAlert error={change.error} action={sessionAction(change.error)} />}
      </div>
    );
  if (step !== 'confirming')
    return (
      <Button
        variant="ghost"
        className="px-2 py-1 text-xs whitespace-nowrap"
        aria-label={`Deactivate ${operator.name}`}
        autoFocus={step === 'kept'}
        onClick={() => setStep('confirming')}
      >
        Deactivate
      </Button>
    );
  return (
    <div className="flex flex-col items-end gap-2 text-left">
      <div
        role="group"
        aria-label={`Deactivate ${operator.name}?`}
        className="flex flex-wrap items-center justify-end gap-2 text-xs"
      >
        <span>
          Deactivate {operator.name}? They are signed out, their documents go back to the queue, and they
          cannot sign in until reactivated.
        </span>
        <Button
          variant="secondary"
          className="border-red-700 px-2 py-1 text-xs text-red-800"
          disabled={change.isPending}
          onClick={() => change.mutate({ active: false }, { onSuccess: () => setStep('idle') })}
        >
          {change.isPending ? 'Deactivating…' : `Yes, deactivate ${operator.name}`}
        </Button>
        <Button
          variant="ghost"
          className="px-2 py-1 text-xs whitespace-nowrap"
          autoFocus
          onClick={() => {
            change.reset();
            setStep('kept');
          }}
        >
          Keep
        </Button>
      </div>
      {change.isError && <ProblemAlert error={change.error} action={sessionAction(change.error)} />}
    </div>
  );
}

/**
 * "Password link": a one-time link for the operator to choose a new password, shown once with a
 * "Copy" button (the server keeps only its hash); a newer one spends it.
 */
export function PasswordLinkButton({ operator }: { operator: OperatorView }) {
  const [copied, setCopied] = useState(false);
  const link = useMutation({
    mutationFn: () => createPasswordLink(operator.id),
    onMutate: () => setCopied(false),
  });
  useRecheckSessionOn(link.error);
  const fieldId = useId();
  if (!isActive(operator)) return null;
  const url = link.data === undefined ? undefined : `${window.location.origin}${link.data.path}`;
  return (
    <div className="flex flex-col items-end gap-2">
      <Button
        variant="ghost"
        className="px-2 py-1 text-xs whitespace-nowrap"
        aria-label={`Make a password link for ${operator.name}`}
        disabled={link.isPending}
        onClick={() => link.mutate()}
      >
        {link.isPending ? 'Making a link…' : url === undefined ? 'Password link' : 'New password link'}
      </Button>
      {url !== undefined && link.data !== undefined && (
        <div className="flex w-full max-w-md flex-col gap-1 rounded-md border border-blue-200 bg-blue-50 p-2 text-left text-xs">
          <label htmlFor={fieldId} className="font-medium text-blue-950">
            Give {operator.name} this link to choose a new password. It works once, until{' '}
            {formatDateTime(link.data.expiresAt)}.
          </label>
          <div className="flex gap-2">
            <input
              id={fieldId}
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs"
            />
            <Button
              variant="secondary"
              className="px-2 py-1 text-xs whitespace-nowrap"
              onClick={() =>
                void navigator.clipboard?.writeText(url).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </div>
      )}
      {link.isError && <ProblemAlert error={link.error} action={sessionAction(link.error)} />}
    </div>
  );
}
