import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { createFirstAdmin } from '../../api/review/endpoints';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import {
  focusFirstError,
  problemCode,
  rateLimitAction,
  splitProblem,
  type FieldErrors,
} from './field-problems';
import { newPasswordProblems, PASSWORD_HINT } from './password-rules';
import { TextField } from './text-field';
import { useAcceptSession } from '../../app/session/use-session';

type Field = 'name' | 'password' | 'again';
const FIELDS: readonly Field[] = ['name', 'password', 'again'];

/** The server's word on the fields; a taken name (409-003) comes without a pointer from `/api/setup`. */
const serverFields = (error: unknown) => splitProblem(error, FIELDS, { '409-003': 'name' });

/** Read by the operators page: it greets the new admin and suggests adding the team. */
export interface WelcomeState {
  welcome: true;
}

interface Props {
  token: string;
  /** Shown instead of the form when the link was used meanwhile (404-011). */
  linkUsed: ReactNode;
}

/** The first admin's name and password (twice); signed in at once, then on to the operators. */
export function SetupForm({ token, linkUsed }: Props) {
  const [, navigate] = useLocation();
  const acceptSession = useAcceptSession();
  const formRef = useRef<HTMLFormElement>(null);
  const [invalid, setInvalid] = useState<FieldErrors<Field>>({});

  const mutation = useMutation({
    mutationFn: (input: { name: string; password: string }) => createFirstAdmin({ token, ...input }),
    onSuccess: (session) => {
      acceptSession(session);
      navigate('/operators', { replace: true, state: { welcome: true } satisfies WelcomeState });
    },
    onError: (error) => focusFirstError(formRef.current, FIELDS, serverFields(error).fields),
  });
  if (problemCode(mutation.error) === '404-011') return linkUsed;
  const server = serverFields(mutation.error);
  const errorOf = (field: Field) => invalid[field] ?? server.fields[field];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const name = String(data.get('name') ?? '').trim();
    const password = String(data.get('password') ?? '');
    const found: FieldErrors<Field> = {
      ...(name === '' ? { name: 'Give the name you will sign in with.' } : {}),
      ...newPasswordProblems(password, String(data.get('again') ?? '')),
    };
    mutation.reset();
    setInvalid(found);
    if (focusFirstError(formRef.current, FIELDS, found)) return;
    mutation.mutate({ name, password });
  }

  return (
    <form
      ref={formRef}
      aria-label="Create the first admin"
      className="flex flex-col gap-4"
      noValidate
      onSubmit={onSubmit}
    >
      <TextField
        label="Admin name"
        name="name"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={errorOf('name')}
        hint="What you will sign in with; names are unique whatever their case."
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        error={errorOf('password')}
        hint={PASSWORD_HINT}
      />
      <TextField
        label="Password again"
        name="again"
        type="password"
        autoComplete="new-password"
        required
        error={errorOf('again')}
      />
      {server.rest != null && <ProblemAlert error={server.rest} action={rateLimitAction(mutation.error)} />}
      <div>
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Creating…' : 'Create the admin and sign in'}
        </Button>
      </div>
    </form>
  );
}
