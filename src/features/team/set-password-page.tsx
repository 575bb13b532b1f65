/**
 * `/set-password?token=…`: an operator chooses a new password through the one-time link an admin made
 * for them on the Operators page. The link is checked before the form is shown, and taken out of the
 * address bar once read (it should not stay in the history or be shared from there).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { checkPasswordLink, setPasswordWithLink } from './access-endpoints';
import {
  focusFirstError,
  problemCode,
  rateLimitAction,
  splitProblem,
  type FieldErrors,
} from './field-problems';
import { newPasswordProblems, PASSWORD_HINT } from './password-rules';
import { TextField } from './text-field';

/** The token of the address, once; the address bar then keeps the page without it. */
function takeToken(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token !== null) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  return token === '' ? null : token;
}

export function SetPasswordPage() {
  const [token] = useState(takeToken);
  const link = useQuery({
    queryKey: ['password-link', token],
    queryFn: ({ signal }) => checkPasswordLink(token ?? '', { signal }),
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
  });
  const [done, setDone] = useState(false);

  let body: ReactNode;
  if (token === null) body = <LinkSpent missing />;
  else if (done) body = <PasswordDone />;
  else if (link.isPending) body = <Spinner label="Checking the password link…" />;
  else if (link.isError)
    body =
      problemCode(link.error) === '404-020' ? (
        <LinkSpent />
      ) : (
        <ProblemAlert
          error={link.error}
          action={rateLimitAction(link.error)}
          onRetry={() => void link.refetch()}
        />
      );
  else body = <SetPasswordForm token={token} name={link.data.name} onDone={() => setDone(true)} />;

  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Choose a new password</h1>
        <p className="mt-1 text-sm text-slate-600">
          With the one-time link an admin gave you. Your other sessions end once it is set.
        </p>
      </div>
      {body}
    </main>
  );
}

const linkClass = 'font-medium text-blue-800 underline';

/** 404-020, or no token at all. */
function LinkSpent({ missing = false }: { missing?: boolean }) {
  return (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-semibold">
        {missing ? 'Open the password link itself' : 'This password link cannot be used any more'}
      </p>
      <p className="mt-1">
        {missing
          ? 'This page needs the whole link an admin gave you, with its long code. '
          : 'It works once, for a day, and a newer link replaces it: it was used already, has expired, or an admin made a new one. '}
        Ask an admin for a new link, or{' '}
        <Link href="/sign-in" className={linkClass}>
          sign in
        </Link>{' '}
        if you know your password.
      </p>
    </div>
  );
}

function PasswordDone() {
  return (
    <div role="status" className="rounded-md border border-green-300 bg-green-50 p-4 text-sm text-green-950">
      <p className="font-semibold">Your password is set</p>
      <p className="mt-1">
        <Link href="/sign-in" className={linkClass}>
          Sign in
        </Link>{' '}
        with it now.
      </p>
    </div>
  );
}

type Field = 'password' | 'again';
const FIELDS: readonly Field[] = ['password', 'again'];

function SetPasswordForm({ token, name, onDone }: { token: string; name: string; onDone: () => void }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [invalid, setInvalid] = useState<FieldErrors<Field>>({});
  const mutation = useMutation({
    mutationFn: (password: string) => setPasswordWithLink(token, password),
    onSuccess: onDone,
    onError: (error) => focusFirstError(formRef.current, FIELDS, splitProblem(error, FIELDS).fields),
  });
  if (problemCode(mutation.error) === '404-020') return <LinkSpent />;
  const server = splitProblem(mutation.error, FIELDS);
  const errorOf = (field: Field) => invalid[field] ?? server.fields[field];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get('password') ?? '');
    const found: FieldErrors<Field> = newPasswordProblems(password, String(data.get('again') ?? ''));
    mutation.reset();
    setInvalid(found);
    if (focusFirstError(formRef.current, FIELDS, found)) return;
    mutation.mutate(password);
  }

  return (
    <form
      ref={formRef}
      aria-label="Choose a new password"
      className="flex flex-col gap-4"
      noValidate
      onSubmit={onSubmit}
    >
      {/* For password managers: whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={name} readOnly hidden />
      <p className="text-sm">
        For <span className="font-semibold">{name}</span>.
      </p>
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        error={errorOf('password')}
        hint={PASSWORD_HINT}
      />
      <TextField
        label="New password again"
        name="again"
        type="password"
        autoComplete="new-password"
        required
        error={errorOf('again')}
      />
      {server.rest != null && <ProblemAlert error={server.rest} action={rateLimitAction(mutation.error)} />}
      <div>
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Setting…' : 'Set the password'}
        </Button>
      </div>
    </form>
  );
}
