/**
 * The server's password rules (the shared constants of the review API's schemas), checked here first
 * so the form says what is wrong before anything is sent. The server checks again and answers
 * 422-008 with `#/password`.
 */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@extraction-review/contract/review/schemas';

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH };

export const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words make a good one.`;

export interface NewPasswordProblems {
  password?: string;
  again?: string;
}

/** What is wrong with a new password typed twice; an empty object when nothing is. */
export function newPasswordProblems(password: string, again: string): NewPasswordProblems {
  if (password.length < MIN_PASSWORD_LENGTH)
    return {
      password:
        password === ''
          ? `Give a password of at least ${MIN_PASSWORD_LENGTH} characters.`
          : `This password has ${password.length} characters; it needs at least ${MIN_PASSWORD_LENGTH}.`,
    };
  if (password.length > MAX_PASSWORD_LENGTH)
    return { password: `A password has at most ${MAX_PASSWORD_LENGTH} characters.` };
  if (again !== password) return { again: 'The two passwords differ: type the same one twice.' };
  return {};
}
