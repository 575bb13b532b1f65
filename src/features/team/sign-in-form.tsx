import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { signIn } from '../../api/review/endpoints';
import { SignInRequest } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import {
  focusFirstError,
  problemCode,
  rateLimitAction,
  splitProblem,
  type FieldErrors,
} from './field-problems';
import { TextField } from './text-field';
import { useAcceptSession } from '../../app/session/use-session';

type Field = 'name' | 'password';
const FIELDS: readonly Field[] = ['name', 'password'];

function actionFor(error: unknown): string | undefined {
  if (problemCode(error) === '401-012')
    return 'Check both, then sign in again. Forgotten your password? An admin can set a new one.';
  return rateLimitAction(error);
}

/**
 * Name and password; once signed in, on to `next` (a path of this app, checked by the caller).
 * `secondary`: beside the company's provider, whose button is the page's main one.
 */
export function SignInForm({ next, secondary = false }: { next: string | null; secondary?: boolean }) {
  const [, navigate] = useLocation();
  const acceptSession = useAcceptSession();
  const formRef = useRef<HTMLFormElement>(null);
  const [invalid, setInvalid] = useState<FieldErrors<Field>>({});

  const mutation = useMutation({
    mutationFn: (input: SignInRequest) => signIn(input),
    onSuccess: (session) => {
      acceptSession(session);
      navigate(next ?? '/queue');
    },
    onError: (error) => focusFirstError(formRef.current, FIELDS, splitProblem(error, FIELDS).fields),
  });
  const server = splitProblem(mutation.error, FIELDS);
  const errorOf = (field: Field) => invalid[field] ?? server.fields[field];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = SignInRequest.safeParse({ name: data.get('name'), password: data.get('password') });
    if (!parsed.success) {
      const found: FieldErrors<Field> = {};
      for (const issue of parsed.error.issues) {
        const field = FIELDS.find((f) => f === issue.path[0]);
        if (field) found[field] ??= issue.message;
      }
      mutation.reset();
      setInvalid(found);
      focusFirstError(formRef.current, FIELDS, found);
      return;
    }
    setInvalid({});
    mutation.mutate(parsed.data);
  }

  return (
    <form ref={formRef} aria-label="Sign in" className="flex flex-col gap-4" noValidate onSubmit={onSubmit}>
      <TextField
        label="Name"
        name="name"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={errorOf('name')}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={errorOf('password')}
      />
      {server.rest != null && <ProblemAlert error={server.rest} action={actionFor(mutation.error)} />}
      <div>
        <Button type="submit" variant={secondary ? 'secondary' : 'primary'} disabled={mutation.isPending}>
          {mutation.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </div>
    </form>
  );
}
