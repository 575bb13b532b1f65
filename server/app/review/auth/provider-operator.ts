/**
 * Which operator a person signed in by the OpenID Connect provider is, at every sign-in:
 *
 * 1. the operator linked to the identity (issuer and subject);
 * 2. else, the first time, the operator named by the person's e-mail (unless the provider says it is
 *    not verified) or user name, then linked, so that a later change of e-mail keeps the operator;
 * 3. else, with OIDC_AUTO_CREATE, a new operator named by it (no password), linked;
 * 4. else refused (401-016).
 *
 * Then the role, from OIDC_ROLE_CLAIM when it is set (the last active admin is never demoted this way:
 * operator-store.ts OperatorAccess). A deactivated operator is refused (403-007) whichever way found.
 */
import { ProblemError } from '@extraction-review/contract/problem';
import { componentLogger } from '@extraction-review/server-kit/logger';
import type { OperatorRow } from '../db/schema';
import type { OperatorRole } from '../model/review-types';
import { DuplicateOperatorError, OperatorAccess, type OperatorStore } from '../store/operator-store';
import type { OidcIdentityStore } from '../store/oidc-identities';
import type { ReviewDatabase } from '../db/open-database';
import { claimValues, type OidcSettings, type ProviderIdentity } from './oidc-provider-client';

const logger = componentLogger('oidc');

export interface ProviderOperatorDeps {
  database: ReviewDatabase;
  operators: OperatorStore;
  identities: OidcIdentityStore;
  settings: Pick<OidcSettings, 'autoCreate' | 'roleClaim' | 'adminValues'>;
}

/** The name an operator has (or is given) for this person: the e-mail, else the user name. */
export function nameFromClaims(claims: Record<string, unknown>): string | undefined {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (email !== '' && claims.email_verified !== false) return email;
  const username = typeof claims.preferred_username === 'string' ? claims.preferred_username.trim() : '';
  return username !== '' ? username : undefined;
}

/** The role the claim gives, or undefined when roles are not read from the provider. */
export function roleFromClaims(
  claims: Record<string, unknown>,
  settings: Pick<OidcSettings, 'roleClaim' | 'adminValues'>,
): OperatorRole | undefined {
  if (settings.roleClaim === undefined) return undefined;
  const values = claimValues(claims, settings.roleClaim);
  return values.some((value) => settings.adminValues.includes(value)) ? 'admin' : 'operator';
}

export async function providerOperator(
  deps: ProviderOperatorDeps,
  identity: ProviderIdentity,
  now: number,
): Promise<OperatorRow> {
  const { issuer, subject, claims } = identity;
  const role = roleFromClaims(claims, deps.settings);
  let operator = await deps.identities.operatorOf(issuer, subject);
  if (operator === undefined) {
    operator = await firstSignIn(deps, identity, role ?? 'operator', now);
  } else {
    await deps.identities.signedIn(issuer, subject, now);
  }
  if (operator.deactivated_at !== null) {
    throw new ProblemError('403-007', 'An admin deactivated this operator: ask an admin to reactivate you.');
  }
  if (role !== undefined && role !== operator.role) {
    const changed = await new OperatorAccess(deps.database).change(operator.id, { role }, now);
    if (changed.ok) operator = changed.row;
    else logger.warn({ operatorId: operator.id }, 'the role claim would demote the last admin: kept admin');
  }
  return operator;
}

async function firstSignIn(
  deps: ProviderOperatorDeps,
  { issuer, subject, claims }: ProviderIdentity,
  role: OperatorRole,
  now: number,
): Promise<OperatorRow> {
  const name = nameFromClaims(claims);
  if (name === undefined) {
    throw new ProblemError(
      '401-016',
      'The sign-in provider gave neither a verified e-mail nor a user name for you, so no operator can be found or made. Ask an admin.',
    );
  }
  let operator = await deps.operators.findByName(name);
  if (operator !== undefined) {
    // One operator is one person at the provider: never a second identity of the same issuer.
    const linked = await deps.identities.subjectOf(operator.id, issuer);
    if (linked !== undefined && linked !== subject) {
      throw new ProblemError(
        '401-016',
        `The operator ${JSON.stringify(operator.name)} is linked to another account at the sign-in provider. Ask an admin.`,
      );
    }
  } else if (deps.settings.autoCreate) {
    try {
      await deps.operators.create({ name, role, passwordHash: null }, now);
    } catch (error) {
      // Made meanwhile by another first sign-in of the same person: theirs is ours.
      if (!(error instanceof DuplicateOperatorError)) throw error;
    }
    operator = await deps.operators.findByName(name);
    logger.info(
      { operatorId: operator?.id, role },
      'operator created at their first sign-in with the provider',
    );
  }
  if (operator === undefined) {
    throw new ProblemError(
      '401-016',
      `No operator is named ${JSON.stringify(name)} here. Ask an admin to add you (with that name), then sign in again.`,
    );
  }
  if (!(await deps.identities.link(issuer, subject, operator.id, now))) {
    const linkedMeanwhile = await deps.identities.operatorOf(issuer, subject);
    if (linkedMeanwhile !== undefined) return linkedMeanwhile;
  }
  return operator;
}
