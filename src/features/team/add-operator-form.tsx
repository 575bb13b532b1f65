import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { createOperator } from '../../api/review/endpoints';
import { operatorsQueryOptions } from '../../api/review/queries';
import { OperatorRole } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { focusFirstError, sessionAction, splitProblem, type FieldErrors } from './field-problems';
import { MIN_PASSWORD_LENGTH, newPasswordProblems, PASSWORD_HINT } from './password-rules';
import { TextField } from './text-field';
import { useRecheckSessionOn } from '../../app/session/use-session';

type Field = 'name' | 'password' | 'again';
const FIELDS: readonly Field[] = ['name', 'password', 'again'];
/** A taken name (409-003) is told on the name field alone. */
const BY_CODE = { '409-003': 'name' } as const;
const EMPTY = { name: '', role: 'operator' as OperatorRole, password: '', again: '', ssoOnly: false };

/** What is wrong before sending: a name, and a password unless single sign-on only is ticked. */
function check(form: typeof EMPTY): FieldErrors<Field> {
  const name = form.name.trim() === '' ? { name: 'Give the name they will sign in with.' } : {};
  if (form.ssoOnly) return name;
  if (form.password === '')
    return {
      ...name,
      password: `Give a password of at least ${MIN_PASSWORD_LENGTH} characters, or tick “Signs in through single sign-on only”.`,
    };
  return { ...name, ...newPasswordProblems(form.password, form.again) };
}

/** A new operator or admin: name, role, and a password or single sign-on only. */
export function AddOperatorForm() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(EMPTY);
  const [invalid, setInvalid] = useState<FieldErrors<Field>>({});
  const [added, setAdded] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const roleId = useId();
  const ssoId = useId();
  const ssoHint = useId();

  const mutation = useMutation({
    mutationFn: (input: { name: string; role: OperatorRole; password: string }) => createOperator(input),
    onSuccess: ({ operator }) => {
      setForm(EMPTY);
      setAdded(`${operator.name} was added as ${operator.role === 'admin' ? 'an admin' : 'an operator'}.`);
      // Ready for the next one.
      const name = formRef.current?.elements.namedItem('name');
      if (name instanceof HTMLInputElement) name.focus();
    },
    onError: (error) => focusFirstError(formRef.current, FIELDS, splitProblem(error, FIELDS, BY_CODE).fields),
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatorsQueryOptions().queryKey }),
  });
  useRecheckSessionOn(mutation.error);
  const server = splitProblem(mutation.error, FIELDS, BY_CODE);
  const errorOf = (field: Field) => invalid[field] ?? server.fields[field];
  const edit = (patch: Partial<typeof EMPTY>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setAdded(null);
  };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = check(form);
    mutation.reset();
    setInvalid(found);
    if (focusFirstError(formRef.current, FIELDS, found)) return;
    mutation.mutate({ name: form.name.trim(), role: form.role, password: form.ssoOnly ? '' : form.password });
  }

  return (
    <form
      ref={formRef}
      aria-label="Add an operator"
      className="flex max-w-md flex-col gap-4"
      noValidate
      onSubmit={onSubmit}
    >
      <TextField
        label="Name"
        name="name"
        value={form.name}
        onChange={(e) => edit({ name: e.target.value })}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={errorOf('name')}
        hint="What they sign in with (with single sign-on: the name the company’s proxy sends)."
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={roleId} className="text-sm font-medium">
          Role
        </label>
        <select
          id={roleId}
          value={form.role}
          onChange={(e) => edit({ role: OperatorRole.parse(e.target.value) })}
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
        >
          <option value="operator">Operator: reviews documents</option>
          <option value="admin">Admin: also manages operators, reassigns and reopens</option>
        </select>
      </div>
      <div className="flex items-start gap-2">
        <input
          id={ssoId}
          type="checkbox"
          checked={form.ssoOnly}
          onChange={(e) => edit({ ssoOnly: e.target.checked, password: '', again: '' })}
          aria-describedby={ssoHint}
          className="mt-1 size-4"
        />
        <div>
          <label htmlFor={ssoId} className="text-sm font-medium">
            Signs in through single sign-on only
          </label>
          <p id={ssoHint} className="text-xs text-slate-600">
            No password: the company’s sign-in proxy vouches for them (the app server’s SSO_HEADER setting).
          </p>
        </div>
      </div>
      <TextField
        label="Password"
        name="password"
        type="password"
        value={form.password}
        onChange={(e) => edit({ password: e.target.value })}
        autoComplete="new-password"
        disabled={form.ssoOnly}
        error={errorOf('password')}
        hint={form.ssoOnly ? 'Not needed with single sign-on only.' : PASSWORD_HINT}
      />
      <TextField
        label="Password again"
        name="again"
        type="password"
        value={form.again}
        onChange={(e) => edit({ again: e.target.value })}
        autoComplete="new-password"
        disabled={form.ssoOnly}
        error={errorOf('again')}
      />
      {server.rest != null && <ProblemAlert error={server.rest} action={sessionAction(mutation.error)} />}
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Adding…' : 'Add'}
        </Button>
        <span role="status" className="text-sm text-slate-700">
          {added}
        </span>
      </div>
    </form>
  );
}
