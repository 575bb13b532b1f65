/**
 * The `operators` admin command on both engines (SQLite, and a real PostgreSQL server): it adds,
 * lists, removes operators and sets their password or role in the store the server reads, refuses
 * what it should with the exit code it documents, never prints a password or a hash, and runs as a
 * real process from `npm run operators`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../settings/config';
import { verifyPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { OperatorStore } from '../store/operator-store';
import { SessionStore } from '../store/session-store';
import { runOperatorsCommand, USAGE, type OperatorsIo } from './operators-command';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'staple of the battery horse';
const ISO_SECOND = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A Writable that keeps what is written, and tells `onWrite` each piece. */
function capture(onWrite: (text: string) => void = () => undefined): Writable & { text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += chunk.toString();
      onWrite(chunk.toString());
      callback();
    },
  });
  return Object.assign(stream, { text: () => text });
}

async function run(env: NodeJS.ProcessEnv, argv: string[], input = ''): Promise<Outcome> {
  const stdout = capture();
  const stderr = capture();
  // Readable.from: a pipe, not a terminal (no isTTY).
  const io: OperatorsIo = { stdin: Readable.from([input]), stdout, stderr, env };
  const code = await runOperatorsCommand(argv, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe.each(ENGINES)('the operators command on %s', (engine) => {
  let store: TestStore;
  let operators: OperatorStore;
  let sessions: SessionStore;
  let env: NodeJS.ProcessEnv;
  const operatorsCommand = (argv: string[], input?: string) => run(env, argv, input);

  beforeAll(async () => {
    store = await openTestStore(engine);
    operators = new OperatorStore(store.database);
    sessions = new SessionStore(store.database);
    // The command opens the same store on its own connection, as it would next to a running server.
    env = { APP_DATA_DIR: store.settings.dataDir, DATABASE_URL: store.settings.databaseUrl ?? '' };
  });
  afterAll(async () => {
    await store.cleanup();
  });

  const sessionOwners = async () =>
    (await store.database.db.selectFrom('sessions').select('operator_id').execute()).map(
      (s) => s.operator_id,
    );

  it('lists nobody in a new store', async () => {
    expect(await operatorsCommand(['list'])).toEqual({ code: 0, stdout: 'No operators yet.\n', stderr: '' });
  });

  it('adds an admin and an operator, the password read from a pipe less its final newline', async () => {
    expect(await operatorsCommand(['add', 'Ada', '--role', 'admin'], `${PASSWORD}\n`)).toEqual({
      code: 0,
      stdout: 'Added admin "Ada".\n',
      stderr: '',
    });
    expect(await operatorsCommand(['add', '  Bob ', '--role=operator'], `${PASSWORD}\r\n`)).toEqual({
      code: 0,
      stdout: 'Added operator "Bob".\n',
      stderr: '',
    });
    const ada = await operators.findByName('ada');
    expect(ada).toMatchObject({ name: 'Ada', role: 'admin' });
    expect(await verifyPassword(ada?.password_hash, PASSWORD)).toBe(true);
    expect(await operators.findByName('Bob')).toMatchObject({ name: 'Bob', role: 'operator' });
    expect(await verifyPassword((await operators.findByName('Bob'))?.password_hash, PASSWORD)).toBe(true);
  });

  it('refuses a name already taken, whatever its case', async () => {
    expect(await operatorsCommand(['add', 'ADA', '--role', 'operator'], PASSWORD)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'An operator named "ADA" already exists.\n',
    });
    expect(await operators.count()).toBe(2);
  });

  it('refuses a short or missing password, and adds nobody', async () => {
    expect(await operatorsCommand(['add', 'Cy', '--role', 'operator'], 'short\n')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'A password has at least 12 characters.\n',
    });
    expect(await operatorsCommand(['add', 'Cy', '--role', 'operator'], '')).toMatchObject({
      code: 1,
      stderr: 'No password given (on standard input).\n',
    });
    expect(await operators.findByName('Cy')).toBeUndefined();
  });

  it('lists the operators in an aligned table, those without a password as single sign-on only', async () => {
    await operators.create(
      { name: 'Sso Sam', role: 'operator', passwordHash: null },
      Date.UTC(2026, 0, 2, 3, 4, 5),
    );
    const listed = await operatorsCommand(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe('');
    expect(listed.stdout.replace(ISO_SECOND, '<time>')).toBe(
      [
        'NAME     ROLE      PASSWORD  CREATED',
        'Ada      admin     yes       <time>',
        'Bob      operator  yes       <time>',
        'Sso Sam  operator  no        <time>',
        '',
        'Password "no": signs in through single sign-on only.',
        '',
      ].join('\n'),
    );
    expect(listed.stdout).toContain('Sso Sam  operator  no        2026-01-02T03:04:05Z');
  });

  it("sets a password: the new one signs in, the old one no more, and only that operator's sessions end", async () => {
    const ada = await operators.findByName('Ada');
    const bob = await operators.findByName('Bob');
    if (!ada || !bob) throw new Error('Ada and Bob were added above');
    await sessions.create(ada.id, Date.now());
    await sessions.create(ada.id, Date.now());
    await sessions.create(bob.id, Date.now());

    const outcome = await operatorsCommand(['set-password', 'ada'], `${NEW_PASSWORD}\n`);
    expect(outcome).toEqual({
      code: 0,
      stdout: 'Set a new password for "Ada"; all their sessions were ended.\n',
      stderr: '',
    });
    const hash = (await operators.findByName('Ada'))?.password_hash ?? null;
    expect(await verifyPassword(hash, NEW_PASSWORD)).toBe(true);
    expect(await verifyPassword(hash, PASSWORD)).toBe(false);
    expect(await sessionOwners()).toEqual([bob.id]);
    // Neither the password nor its hash is ever shown.
    expect(JSON.stringify(outcome)).not.toContain(NEW_PASSWORD);
    expect(JSON.stringify(outcome)).not.toContain(hash);
  });

  it('refuses a short new password and keeps the old one', async () => {
    expect(await operatorsCommand(['set-password', 'Ada'], 'short')).toMatchObject({ code: 1 });
    const hash = (await operators.findByName('Ada'))?.password_hash ?? null;
    expect(await verifyPassword(hash, NEW_PASSWORD)).toBe(true);
  });

  it('changes a role', async () => {
    expect(await operatorsCommand(['set-role', 'bob', 'admin'])).toEqual({
      code: 0,
      stdout: '"Bob" is now an admin.\n',
      stderr: '',
    });
    expect(await operators.findByName('Bob')).toMatchObject({ role: 'admin' });
  });

  it('removes an operator, and their sessions with them', async () => {
    expect(await operatorsCommand(['remove', 'BOB'])).toEqual({
      code: 0,
      stdout: 'Removed "Bob"; their sessions ended with them.\n',
      stderr: '',
    });
    expect(await operators.findByName('Bob')).toBeUndefined();
    expect(await sessionOwners()).toEqual([]);
  });

  it('says so, exit 1, for a name nobody has', async () => {
    for (const argv of [
      ['remove', 'Zed'],
      ['set-password', 'Zed'],
      ['set-role', 'Zed', 'admin'],
    ]) {
      expect(await operatorsCommand(argv, PASSWORD)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'No operator named "Zed".\n',
      });
    }
    expect(await operators.count()).toBe(2);
  });
});

describe('the operators command, before it opens the store', () => {
  // Arguments are checked first: this store is never created.
  const env = { APP_DATA_DIR: path.join(os.tmpdir(), 'operators-never-opened'), DATABASE_URL: '' };

  it('shows its usage on stdout when asked, exit 0', async () => {
    for (const argv of [['help'], ['--help'], ['-h'], ['add', '--help']]) {
      expect(await run(env, argv)).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    }
    expect(USAGE).toContain('add NAME --role admin|operator');
  });

  it.each([
    ['No command given.', []],
    ['Unknown command "frobnicate".', ['frobnicate']],
    ['add needs --role admin|operator.', ['add', 'Ada']],
    ['Unknown role "boss": admin or operator.', ['add', 'Ada', '--role', 'boss']],
    ['A name has 1 to 200 characters (spaces around it are dropped).', ['add', '   ', '--role', 'admin']],
    [
      'A name has 1 to 200 characters (spaces around it are dropped).',
      ['add', 'x'.repeat(201), '--role', 'admin'],
    ],
    ['add takes one argument, got 0.', ['add', '--role', 'admin']],
    ['Unknown role "root": admin or operator.', ['set-role', 'Ada', 'root']],
    ['set-role takes two arguments, got 1.', ['set-role', 'Ada']],
    ['remove takes one argument, got 0.', ['remove']],
    ['list takes no arguments, got 1.', ['list', 'everyone']],
    ['--role is for add only (set-role NAME admin|operator changes a role).', ['list', '--role', 'admin']],
    ["Unknown option '--all'", ['list', '--all']],
    ["Option '--role <value>' argument missing", ['add', 'Ada', '--role']],
  ])('exit 2, usage on stderr: %s', async (message, argv) => {
    const outcome = await run(env, argv, PASSWORD);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr.startsWith(message)).toBe(true);
    expect(outcome.stderr.endsWith(`\n\n${USAGE}`)).toBe(true);
  });

  it('explains a configuration error, exit 1', async () => {
    const outcome = await run({ ...env, DATABASE_URL: 'mysql://db.example/review' }, ['list']);
    expect(outcome).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Invalid configuration:\n  DATABASE_URL: expected a postgres:// (or postgresql://) URL\n',
    });
  });

  it('explains in one line, naming DATABASE_URL, a PostgreSQL server it cannot reach, exit 1', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const outcome = await run({ ...env, DATABASE_URL: 'postgres://review:s3cret@127.0.0.1:1/review' }, [
      'list',
    ]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toBe(
      'Cannot open the review store, the PostgreSQL database of DATABASE_URL ' +
        '(postgres://review:***@127.0.0.1:1/review): connect ECONNREFUSED 127.0.0.1:1. ' +
        'Check DATABASE_URL and that the PostgreSQL server is running and reachable.\n',
    );
  });
});

describe('the operators command on a terminal', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'operators-tty-'));
    env = { APP_DATA_DIR: dataDir, DATABASE_URL: '' };
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * A terminal that types `keys[n]` once the n-th prompt is shown (as a person would), in raw mode
   * only: what is typed before raw mode would be echoed.
   */
  async function onTerminal(argv: string[], keys: string[]) {
    const terminal = Object.assign(new PassThrough(), {
      isTTY: true,
      raw: false,
      setRawMode(raw: boolean) {
        terminal.raw = raw;
        return terminal;
      },
    });
    const typedInRawMode: boolean[] = [];
    const stdout = capture();
    const stderr = capture((text) => {
      if (!text.startsWith('Password for')) return;
      const next = keys.shift();
      if (next === undefined) return;
      setImmediate(() => {
        typedInRawMode.push(terminal.raw);
        terminal.write(next);
      });
    });
    const code = await runOperatorsCommand(argv, { stdin: terminal, stdout, stderr, env });
    // What the store did on first use (its migrations) is said on stderr too: not the prompts'.
    const prompts = stderr
      .text()
      .split(/(?<=\n)/)
      .filter((line) => !line.startsWith('[review store]'))
      .join('');
    return { code, stdout: stdout.text(), stderr: prompts, typedInRawMode, rawAtEnd: terminal.raw };
  }

  it('asks twice without echo, Backspace rubbing out a character', async () => {
    const outcome = await onTerminal(
      ['add', 'Tia', '--role', 'operator'],
      [`${PASSWORD}x\u007f\r`, `${PASSWORD}\r`],
    );
    expect(outcome).toEqual({
      code: 0,
      stdout: 'Added operator "Tia".\n',
      stderr: 'Password for Tia: \nPassword for Tia (again): \n',
      typedInRawMode: [true, true],
      rawAtEnd: false,
    });
    expect(await verifyPassword(await openAndFind(dataDir, 'Tia'), PASSWORD)).toBe(true);
  });

  it('refuses two different passwords, exit 1', async () => {
    const outcome = await onTerminal(['set-password', 'Tia'], [`${NEW_PASSWORD}\r`, `${NEW_PASSWORD}!\r`]);
    expect(outcome).toMatchObject({ code: 1, stdout: '', rawAtEnd: false });
    expect(outcome.stderr).toContain('The two passwords differ; nothing was changed.\n');
    expect(await verifyPassword(await openAndFind(dataDir, 'Tia'), PASSWORD)).toBe(true);
  });

  it('stops at Ctrl-C, exit 130', async () => {
    const outcome = await onTerminal(['add', 'Uma', '--role', 'admin'], ['half a pass\u0003']);
    expect(outcome).toEqual({
      code: 130,
      stdout: '',
      stderr: 'Password for Uma: \nAborted.\n',
      typedInRawMode: [true],
      rawAtEnd: false,
    });
    expect(await openAndFind(dataDir, 'Uma')).toBeUndefined();
  });
});

/** The password hash of `name` in the SQLite store of `dataDir` (undefined: no such operator). */
async function openAndFind(dataDir: string, name: string): Promise<string | null | undefined> {
  const { openReviewDatabase } = await import('../db/open-database');
  const database = await openReviewDatabase({ dataDir });
  try {
    return (await new OperatorStore(database).findByName(name))?.password_hash;
  } finally {
    await database.close();
  }
}

describe('npm run operators, as a process', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'operators-process-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The entry as package.json's script runs it (tsx), on the embedded store of `dataDir`. */
  function entry(args: string[], input: string): Promise<Outcome> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/cli/operators.ts', ...args],
      {
        cwd: repoRoot,
        // Empty is unset for the configuration, and, being set, wins over a DATABASE_URL in a developer's .env.
        env: { ...process.env, APP_DATA_DIR: dataDir, DATABASE_URL: '' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(input);
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  it('adds an admin with the password piped in, then lists it', async () => {
    // A fresh store is migrated first: said on stderr, so that stdout stays the command's answer.
    const added = await entry(['add', 'Root', '--role', 'admin'], `${PASSWORD}\n`);
    expect(added).toMatchObject({ code: 0, stdout: 'Added admin "Root".\n' });
    expect(added.stderr).toMatch(/^\[review store\] applied migration 0001-review-store /);
    const listed = await entry(['list'], '');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout.replace(ISO_SECOND, '<time>')).toBe(
      'NAME  ROLE   PASSWORD  CREATED\nRoot  admin  yes       <time>\n',
    );
  });
});

describe('setup-link', () => {
  it('prints a one-time link that the set-up page accepts once', async () => {
    const store = await openTestStore('sqlite');
    try {
      const out: string[] = [];
      const err: string[] = [];
      const sink = (into: string[]) =>
        new Writable({
          write(chunk: Buffer, _encoding, callback) {
            into.push(chunk.toString());
            callback();
          },
        });
      const code = await runOperatorsCommand(['setup-link', '--base', 'http://127.0.0.1:9999'], {
        stdin: Readable.from([]),
        stdout: sink(out),
        stderr: sink(err),
        env: { APP_DATA_DIR: store.settings.dataDir, DATABASE_URL: '' },
      });
      expect(err.join('')).toBe('');
      expect(code).toBe(0);
      const link = out.join('').trim().split('\n').at(-1) ?? '';
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:9999\/setup#[A-Za-z0-9_-]{43}$/);
      const token = link.split('#')[1] ?? '';
      const sessions = new SessionStore(store.database);
      expect(await sessions.consumeSetupToken(token, Date.now())).toBe(true);
      expect(await sessions.consumeSetupToken(token, Date.now())).toBe(false);
    } finally {
      await store.cleanup();
    }
  });
});
