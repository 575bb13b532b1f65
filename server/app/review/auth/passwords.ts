/**
 * Operator passwords, hashed with Argon2id (the `argon2` package: the reference implementation's
 * bindings, prebuilt in the package, nothing downloaded). Parameters from OWASP's password storage
 * cheat sheet's first Argon2id option (19 MiB, 2 iterations, 1 lane): memory-hard, and about 30 ms
 * on our 2-core machines, so sign-in stays quick and a burst of guesses stays expensive.
 */
import argon2 from 'argon2';
// Shorter passwords are refused when an operator is created or changes password; Argon2 takes any
// length, but a megabyte "password" would only be a way to load the server.
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@extraction-review/contract/review/schemas';

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH };

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function checkPasswordRules(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `A password has at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH)
    return `A password has at most ${MAX_PASSWORD_LENGTH} characters.`;
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password.normalize('NFC'), OPTIONS);
}

/** A hash of nothing anyone knows: verified against when the name is unknown, so timing tells nothing. */
let decoy: Promise<string> | undefined;

/**
 * Whether the password is the one hashed (argon2's own comparison). With no hash (an unknown name,
 * an operator without a password) a decoy is checked all the same, and the answer is false.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const checked = hash ?? (await (decoy ??= hashPassword(`decoy-${Math.random()}`)));
  try {
    const matches = await argon2.verify(checked, password.normalize('NFC'));
    return hash !== null && hash !== undefined && matches;
  } catch {
    return false;
  }
}
