/**
 * The `integrations` admin command on both engines: the key printed once, alone on the last line, kept
 * only as a hash; list never shows a key; revoke makes the key refused at once; webhook URLs checked and
 * their secrets printed once; refusals with their documented exit codes; and a real process from
 * `npm run integrations`, whose last line is the key.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../settings/config';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { IntegrationStore, KEY_PREFIX, SECRET_PREFIX } from '../store/integration-store';
import { hashToken } from '../store/session-store';
import { runIntegrationsCommand, USAGE } from './integrations-command';

const KEY = new RegExp(`^${KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

function capture(): Writable & { text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  return Object.assign(stream, { text: () => text });
}

async function run(env: NodeJS.ProcessEnv, argv: string[]) {
  const stdout = capture();
  const stderr = capture();
  const code = await runIntegrationsCommand(argv, { stdout, stderr, env });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';

describe.each(ENGINES)('the integrations command on %s', (engine) => {
  let store: TestStore;
  let integrations: IntegrationStore;
  let env: NodeJS.ProcessEnv;
  const command = (argv: string[]) => run(env, argv);

  beforeAll(async () => {
    store = await openTestStore(engine);
    integrations = new IntegrationStore(store.database);
    env = { APP_DATA_DIR: store.settings.dataDir, DATABASE_URL: store.settings.databaseUrl ?? '' };
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('lists none in a new store', async () => {
    expect(await command(['list'])).toEqual({ code: 0, stdout: 'No integrations yet.\n', stderr: '' });
  });

  it('adds one and prints its key once, alone on the last line; only its hash is kept', async () => {
    const added = await command(['add', 'Accounts payable']);
    expect(added.code).toBe(0);
    expect(added.stderr).toBe('');
    const key = lastLine(added.stdout);
    expect(key).toMatch(KEY);
    const row = await integrations.findByName('accounts PAYABLE');
    expect(row?.key_hash).toBe(hashToken(key));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row?.webhook_url).toBeNull();
    expect(await integrations.authenticate(key, Date.now())).toMatchObject({ name: 'Accounts payable' });
    expect(await integrations.authenticate(`${key}x`, Date.now())).toBeUndefined();
  });

  it('adds one with a webhook: the secret is printed once, before the key', async () => {
    const added = await command(['add', 'Mail robot', '--webhook', 'https://hooks.example.com/review']);
    expect(added.code).toBe(0);
    const secret = /webhook secret: (\S+)/.exec(added.stdout)?.[1] ?? '';
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(lastLine(added.stdout)).toMatch(KEY);
    const row = await integrations.findByName('Mail robot');
    expect(row).toMatchObject({ webhook_url: 'https://hooks.example.com/review', webhook_secret: secret });
  });

  it('refuses a second integration of the same name whatever its case', async () => {
    const again = await command(['add', 'ACCOUNTS PAYABLE']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(again.stdout).toBe('');
  });

  it('refuses bad webhook URLs and bad arguments with exit code 2 and the usage', async () => {
    for (const argv of [
      ['add', 'X', '--webhook', 'ftp://example.com/'],
      ['add', 'X', '--webhook', 'https://user:pw@example.com/'],
      ['add', 'X', '--webhook', 'not a url'],
      ['add'],
      ['revoke'],
      ['list', 'extra'],
      ['set-webhook', 'X'],
      ['frobnicate'],
      ['list', '--none'],
      ['set-limit', 'X'],
      ['set-limit', 'X', '0'],
      ['set-limit', 'X', '2.5'],
      ['set-limit', 'X', 'lots'],
    ]) {
      const outcome = await command(argv);
      expect(outcome.code, argv.join(' ')).toBe(2);
      expect(outcome.stderr).toContain('Usage: npm run integrations');
    }
    expect(await command(['help'])).toEqual({ code: 0, stdout: USAGE, stderr: '' });
  });

  it('lists them with a key hint, never a key or a secret', async () => {
    const listed = await command(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^NAME\s+KEY\s+STATE\s+LIMIT\s+WEBHOOK\s+CREATED\s+LAST USED$/m);
    expect(listed.stdout).toMatch(/Accounts payable\s+erk_\S{6}…\s+active\s+-\s+-/);
    expect(listed.stdout).toContain('https://hooks.example.com/review');
    expect(listed.stdout).not.toContain(SECRET_PREFIX);
    expect(listed.stdout).not.toMatch(/erk_[A-Za-z0-9_-]{20,}/);
  });

  it('refuses webhook URLs aimed inside (loopback, private, metadata) unless ALLOW_PRIVATE_WEBHOOKS names them', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://10.0.0.5/hook',
    ]) {
      const added = await command(['add', 'Inside', '--webhook', url]);
      expect(added, url).toMatchObject({ code: 1, stdout: '' });
      expect(added.stderr, url).toMatch(/not public|address: webhooks are sent to public addresses only/);
      expect(added.stderr, url).toContain('ALLOW_PRIVATE_WEBHOOKS');
      const set = await command(['set-webhook', 'Mail robot', url]);
      expect(set, url).toMatchObject({ code: 1, stdout: '' });
    }
    expect(await integrations.findByName('Inside')).toBeUndefined();
    expect(await integrations.findByName('Mail robot')).toMatchObject({
      webhook_url: 'https://hooks.example.com/review',
    });
    // Allowed by name: the address 10.0.0.5 still is not.
    const allowing = { ...env, ALLOW_PRIVATE_WEBHOOKS: '127.0.0.1, localhost' };
    expect((await run(allowing, ['set-webhook', 'Mail robot', 'http://10.0.0.5/hook'])).code).toBe(1);
  });

  it('sets and removes a webhook, with a new secret each time one is set', async () => {
    const before = (await integrations.findByName('Mail robot'))?.webhook_secret;
    // A receiver on this machine, as ALLOW_PRIVATE_WEBHOOKS allows.
    const set = await run({ ...env, ALLOW_PRIVATE_WEBHOOKS: '127.0.0.1' }, [
      'set-webhook',
      'mail robot',
      'http://127.0.0.1:9/hook',
    ]);
    expect(set.code).toBe(0);
    const after = await integrations.findByName('Mail robot');
    expect(after?.webhook_url).toBe('http://127.0.0.1:9/hook');
    expect(after?.webhook_secret).not.toBe(before);
    expect(set.stdout).toContain(`webhook secret: ${after?.webhook_secret ?? ''}`);
    expect((await command(['set-webhook', 'Mail robot', '--none'])).code).toBe(0);
    expect(await integrations.findByName('Mail robot')).toMatchObject({
      webhook_url: null,
      webhook_secret: null,
    });
    expect((await command(['set-webhook', 'Nobody', 'https://example.com/'])).code).toBe(1);
  });

  it('sets, lists and clears a limit of requests per minute', async () => {
    const set = await command(['set-limit', 'accounts payable', '120']);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toContain('120 requests a minute');
    expect(await integrations.findByName('Accounts payable')).toMatchObject({ requests_per_minute: 120 });
    expect((await command(['list'])).stdout).toMatch(/Accounts payable\s+erk_\S{6}…\s+active\s+120\/min\s/);
    expect(await command(['set-limit', 'Accounts payable', 'none'])).toMatchObject({ code: 0 });
    expect(await integrations.findByName('Accounts payable')).toMatchObject({ requests_per_minute: null });
    const nobody = await command(['set-limit', 'Nobody', '5']);
    expect(nobody).toMatchObject({ code: 1, stdout: '' });
    expect(nobody.stderr).toContain('No integration named "Nobody"');
  });

  it('revokes a key: refused at once, the integration still listed as revoked', async () => {
    const added = await command(['add', 'Short lived']);
    const key = lastLine(added.stdout);
    expect(await integrations.authenticate(key, Date.now())).toBeDefined();
    expect(await command(['revoke', 'short LIVED'])).toMatchObject({ code: 0 });
    expect(await integrations.authenticate(key, Date.now())).toBeUndefined();
    const again = await command(['revoke', 'Short lived']);
    expect(again).toMatchObject({ code: 1 });
    expect(again.stderr).toContain('already revoked');
    expect((await command(['revoke', 'Nobody'])).stderr).toContain('No integration named "Nobody"');
    expect((await command(['list'])).stdout).toMatch(/Short lived\s+\S+\s+revoked \d{4}-/);
  });
});

describe('npm run integrations', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'integrations-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs as a process whose last line of output is the key', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/cli/integrations.ts', 'add', 'Pipeline'],
      { cwd: repoRoot, env: { ...process.env, APP_DATA_DIR: dataDir, DATABASE_URL: '' } },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exit) => resolve(exit ?? -1));
    });
    expect(code).toBe(0);
    expect(lastLine(stdout)).toMatch(KEY);
  }, 30_000);
});
