/**
 * The `operators` admin command (entry: ./operators.ts): adds, lists, removes operators of the review
 * store, sets their password or role. It reads the server's own settings (APP_DATA_DIR, DATABASE_URL),
 * so it works on the store the server uses, embedded SQLite or PostgreSQL, even while the server runs.
 *
 * Passwords come from standard input, never from the command line (which other users of the machine
 * see in `ps`, and the shell keeps in its history): asked for twice without echo on a terminal, or
 * read whole from a pipe. Neither a password nor a hash is ever printed.
 *
 * Exit codes: 0 done, 1 refused or failed, 2 bad arguments (usage on stderr), 130 aborted (Ctrl-C).
 */
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import {
  describe,
  Failure,
  isoTime,
  printable,
  quote,
  helpOrUsage,
  runWithStore,
  table,
} from './cli-support';
import { OperatorRole } from '@extraction-review/contract/review/schemas';
import { checkPasswordRules, hashPassword } from '../auth/passwords';
import type { ReviewDatabase } from '../db/open-database';
import { DuplicateOperatorError, OperatorStore, type Operator } from '../store/operator-store';
import { SETUP_LINK_TTL_MS, SessionStore } from '../store/session-store';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';

export interface OperatorsIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** The one clock (server-kit/clock.ts) of the times written to the store; default the system's. */
  clock?: Clock;
}

export const USAGE = `Usage: npm run operators -- <command>

Manages the operators of the review store the app server uses (APP_DATA_DIR, DATABASE_URL: from the
environment, or else the repository's .env).

Commands:
  add NAME --role admin|operator   Add an operator; the password is read from standard input.
  list                             List the operators.
  remove NAME                      Remove an operator; their sessions end with them.
  set-password NAME                Set an operator's password (from standard input) and end all
                                   their sessions.
  set-role NAME admin|operator     Change an operator's role.
  setup-link [--base URL]          Print a new one-time link (valid 1 h) that creates the first
                                   admin in the app (the first start prints one; this makes
                                   another). Refused once an admin exists: use add instead.
  help                             Show this text.

On a terminal the password is asked for twice, without echo. Otherwise standard input is read to
its end and one final newline dropped, e.g.:
  printf '%s' "$PASSWORD" | npm run operators -- add Ada --role admin

Names are unique whatever their case. Exit codes: 0 done, 1 refused or failed, 2 bad arguments,
130 aborted.
`;

/** The same limit as the API's (packages/contract/src/review/schemas.ts, NewOperatorRequest). */
const MAX_NAME_LENGTH = 200;

type Command =
  | { name: 'add'; operator: string; role: OperatorRole }
  | { name: 'list' }
  | { name: 'remove'; operator: string }
  | { name: 'set-password'; operator: string }
  | { name: 'set-role'; operator: string; role: OperatorRole }
  | { name: 'setup-link'; base: string };

type Parsed = { kind: 'help' } | { kind: 'usage'; message: string } | { kind: 'run'; command: Command };

const aborted = () => new Failure('Aborted.', 130);

export async function runOperatorsCommand(argv: string[], io: OperatorsIo): Promise<number> {
  const parsed = helpOrUsage(parseCommand(argv), io, USAGE);
  if (typeof parsed === 'number') return parsed;
  return runWithStore(io, (database) => execute(parsed.command, database, io));
}

// ─── Arguments ───────────────────────────────────────────────────────────────────────────────────────

function parseCommand(argv: string[]): Parsed {
  let values: { role?: string | undefined; base?: string | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { role: { type: 'string' }, base: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    // parseArgs' own messages (unknown option, missing value) are clear enough to show.
    return { kind: 'usage', message: describe(error) };
  }
  const [command, ...rest] = positionals;
  if (values.help === true || command === 'help') return { kind: 'help' };
  if (command === undefined) return { kind: 'usage', message: 'No command given.' };
  if (values.role !== undefined && command !== 'add') {
    return {
      kind: 'usage',
      message: `--role is for add only (set-role NAME admin|operator changes a role).`,
    };
  }
  if (values.base !== undefined && command !== 'setup-link') {
    return { kind: 'usage', message: '--base is for setup-link only.' };
  }
  if (command === 'setup-link') {
    if (rest.length > 0) return { kind: 'usage', message: 'setup-link takes no arguments.' };
    const base = values.base ?? 'http://127.0.0.1:8080';
    if (!/^https?:\/\/[^/]+\/?$/.test(base)) {
      return {
        kind: 'usage',
        message: `--base is the app's address, such as http://127.0.0.1:8080 (got ${base}).`,
      };
    }
    return { kind: 'run', command: { name: 'setup-link', base: base.replace(/\/$/, '') } };
  }
  try {
    return { kind: 'run', command: toCommand(command, rest, values.role) };
  } catch (error) {
    if (error instanceof Failure) return { kind: 'usage', message: error.message };
    throw error;
  }
}

function toCommand(command: string, args: string[], role: string | undefined): Command {
  switch (command) {
    case 'add': {
      const [name] = expectArgs(command, args, 1);
      if (role === undefined) throw new Failure('add needs --role admin|operator.');
      return { name: 'add', operator: checkNewName(name), role: checkRole(role) };
    }
    case 'list':
      expectArgs(command, args, 0);
      return { name: 'list' };
    case 'remove':
    case 'set-password': {
      const [name] = expectArgs(command, args, 1);
      return { name: command, operator: name };
    }
    case 'set-role': {
      const [name, newRole] = expectArgs(command, args, 2);
      return { name: 'set-role', operator: name, role: checkRole(newRole) };
    }
    default:
      throw new Failure(`Unknown command ${JSON.stringify(command)}.`);
  }
}

/** Exactly `count` arguments, as strings: the tuple type spares every caller its own check. */
function expectArgs<N extends 0 | 1 | 2>(
  command: string,
  args: string[],
  count: N,
): N extends 2 ? [string, string] : N extends 1 ? [string] : [] {
  if (args.length !== count) {
    const wanted = count === 0 ? 'no arguments' : count === 1 ? 'one argument' : 'two arguments';
    throw new Failure(`${command} takes ${wanted}, got ${args.length}.`);
  }
  return args as never;
}

function checkRole(role: string): OperatorRole {
  const checked = OperatorRole.safeParse(role);
  if (!checked.success) throw new Failure(`Unknown role ${JSON.stringify(role)}: admin or operator.`);
  return checked.data;
}

function checkNewName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_NAME_LENGTH) {
    throw new Failure(`A name has 1 to ${MAX_NAME_LENGTH} characters (spaces around it are dropped).`);
  }
  return trimmed;
}

// ─── Commands ────────────────────────────────────────────────────────────────────────────────────────

async function execute(command: Command, database: ReviewDatabase, io: OperatorsIo): Promise<void> {
  const operators = new OperatorStore(database);
  const clock = io.clock ?? systemClock;
  switch (command.name) {
    case 'add':
      return add(operators, command.operator, command.role, io, clock);
    case 'list':
      return list(operators, io);
    case 'remove':
      return remove(operators, command.operator, io);
    case 'set-password':
      return setPassword(operators, new SessionStore(database), command.operator, io, clock);
    case 'set-role':
      return setRole(operators, command.operator, command.role, io, clock);
    case 'setup-link': {
      const sessions = new SessionStore(database);
      // The app would refuse it (a link makes the first admin only): say so rather than print it.
      if (await sessions.adminExists())
        throw new Failure('An admin exists already: add operators with `add NAME --role admin`.');
      const token = await sessions.createSetupToken(clock.now(), SETUP_LINK_TTL_MS);
      // The link alone on the last line: scripts take it from there.
      io.stdout.write(
        `One-time link that creates the first admin, valid 1 hour:\n${command.base}/setup#${token}\n`,
      );
      return;
    }
  }
}

async function add(
  operators: OperatorStore,
  name: string,
  role: OperatorRole,
  io: OperatorsIo,
  clock: Clock,
): Promise<void> {
  // Checked before asking for a password, not to have it typed twice for nothing; create() still
  // refuses a name taken meanwhile.
  if ((await operators.findByName(name)) !== undefined) {
    throw new Failure(new DuplicateOperatorError(name).message);
  }
  const passwordHash = await hashPassword(await readNewPassword(name, io));
  let added: Operator;
  try {
    added = await operators.create({ name, role, passwordHash }, clock.now());
  } catch (error) {
    if (error instanceof DuplicateOperatorError) throw new Failure(error.message);
    throw error;
  }
  io.stdout.write(`Added ${added.role} ${quote(added.name)}.\n`);
}

async function list(operators: OperatorStore, io: OperatorsIo): Promise<void> {
  const all = await operators.list();
  if (all.length === 0) {
    io.stdout.write('No operators yet.\n');
    return;
  }
  const rows = all.map((operator) => [
    printable(operator.name),
    operator.role,
    operator.hasPassword ? 'yes' : 'no',
    isoTime(operator.createdAt),
  ]);
  io.stdout.write(table(['NAME', 'ROLE', 'PASSWORD', 'CREATED'], rows));
  if (all.some((operator) => !operator.hasPassword)) {
    io.stdout.write('\nPassword "no": signs in through single sign-on only.\n');
  }
}

async function remove(operators: OperatorStore, name: string, io: OperatorsIo): Promise<void> {
  const existing = await findOrFail(operators, name);
  if (!(await operators.remove(name))) throw unknownOperator(name);
  io.stdout.write(`Removed ${quote(existing.name)}; their sessions ended with them.\n`);
}

async function setPassword(
  operators: OperatorStore,
  sessions: SessionStore,
  name: string,
  io: OperatorsIo,
  clock: Clock,
): Promise<void> {
  const existing = await findOrFail(operators, name);
  const passwordHash = await hashPassword(await readNewPassword(existing.name, io));
  const updated = await operators.setPasswordHash(name, passwordHash, clock.now());
  if (updated === undefined) throw unknownOperator(name);
  // A new password is often a suspected leak: whoever signed in with the old one is signed out.
  await sessions.deleteAllOf(updated.id);
  io.stdout.write(`Set a new password for ${quote(updated.name)}; all their sessions were ended.\n`);
}

async function setRole(
  operators: OperatorStore,
  name: string,
  role: OperatorRole,
  io: OperatorsIo,
  clock: Clock,
): Promise<void> {
  const updated = await operators.setRole(name, role, clock.now());
  if (updated === undefined) throw unknownOperator(name);
  // Sessions read the operator's row at every request: the new role applies at once.
  io.stdout.write(`${quote(updated.name)} is now ${role === 'admin' ? 'an admin' : 'an operator'}.\n`);
}

async function findOrFail(operators: OperatorStore, name: string) {
  const found = await operators.findByName(name);
  if (found === undefined) throw unknownOperator(name);
  return found;
}

const unknownOperator = (name: string) => new Failure(`No operator named ${quote(name)}.`);

// ─── Passwords from standard input ───────────────────────────────────────────────────────────────────

async function readNewPassword(name: string, io: OperatorsIo): Promise<string> {
  const password = io.stdin.isTTY === true ? await askTwice(name, io) : await readPiped(io.stdin);
  checkRules(password);
  return password;
}

async function askTwice(name: string, io: OperatorsIo): Promise<string> {
  // Prompts on stderr: stdout stays the command's result, whatever is done with it.
  const first = await askHidden(io.stdin, io.stderr, `Password for ${name}: `);
  // The rules first: no point in typing a refused password a second time.
  checkRules(first);
  const second = await askHidden(io.stdin, io.stderr, `Password for ${name} (again): `);
  if (first !== second) throw new Failure('The two passwords differ; nothing was changed.');
  return first;
}

function checkRules(password: string): void {
  if (password === '') throw new Failure('No password given (on standard input).');
  const problem = checkPasswordRules(password);
  if (problem !== undefined) throw new Failure(problem);
}

/** All of a pipe, less one final line ending (`echo` and here-documents add one). */
async function readPiped(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

type TerminalInput = NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown };

/**
 * One line from the terminal, not echoed: raw mode hands over each key as typed, so Enter, Backspace
 * and Ctrl-C (no SIGINT in raw mode) are ours to handle.
 */
function askHidden(stdin: TerminalInput, prompt: Writable, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let typed = '';
    const done = (error: Error | undefined) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.setRawMode?.(false);
      stdin.pause();
      // The Enter (or Ctrl-C) was not echoed either.
      prompt.write('\n');
      if (error === undefined) resolve(typed);
      else reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      // Arrow and function keys arrive as escape sequences: they are not part of a password.
      if (text.startsWith('\u001b')) return;
      for (const key of text) {
        if (key === '\r' || key === '\n' || key === '\u0004') return done(undefined);
        if (key === '\u0003') return done(aborted());
        if (key === '\u007f' || key === '\b') typed = Array.from(typed).slice(0, -1).join('');
        else if (key >= ' ') typed += key;
      }
    };
    const onEnd = () => done(undefined);
    const onError = (error: Error) => done(error);
    prompt.write(question);
    stdin.setRawMode?.(true);
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
    stdin.resume();
  });
}

// ─── Output ──────────────────────────────────────────────────────────────────────────────────────────
