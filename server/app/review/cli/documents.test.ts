/**
 * `npm run documents -- purge [--dry-run]` on both engines: the dry run lists per model the documents
 * it would delete and the files it would remove (ids and decision dates, never a file name) and
 * changes nothing; the purge does it, removes the kept files, keeps the run in the purge log, and
 * refuses while another copy holds the purge's lease; arguments are checked (exit 2).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROUTING } from '@extraction-review/contract/review/model-settings';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { DiskFileStorage } from '../files/file-storage';
import { ModelSettingsStore } from '../store/model-settings-store';
import { OperatorStore } from '../store/operator-store';
import { PurgeLog } from '../store/purge-log';
import { QueueStore } from '../store/queue-store';
import { DAY_MS } from '../store/retention-sweep';
import { runDocumentsCommand } from './documents-command';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const NOW = T0 + 400 * DAY_MS;

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(stream, { text: () => text });
}

describe.each(ENGINES)('npm run documents -- purge on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let disk: DiskFileStorage;
  let env: NodeJS.ProcessEnv;
  let alice: string;
  const doc = { old: '', recent: '', waiting: '' };
  const keys: Record<number, string> = {};

  async function run(argv: string[], at = NOW) {
    const stdout = capture();
    const stderr = capture();
    const code = await runDocumentsCommand(argv, { stdout, stderr, env, clock: { now: () => at } });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  }

  async function add(n: number, decidedAt: number | null): Promise<string> {
    const key = randomUUID();
    keys[n] = key;
    await disk.save(key, Readable.from([Buffer.from(`%PDF- ${n}`)]));
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-purge',
        fileName: `Invoice Jane Doe ${n}.pdf`,
        upstreamJobId: `job-${n}`,
        fileKey: key,
      },
      decidedAt ?? T0,
    );
    await queue.setResult(
      added.id,
      { json: '{"name":"Jane Doe"}', resultId: `inf-${n}`, fieldsTotal: 1, fieldsToReview: 1 },
      decidedAt ?? T0,
    );
    if (decidedAt === null) return added.id;
    const taken = await queue.take(added.id, alice, decidedAt);
    if (!taken.ok) throw new Error('not taken');
    const done = await queue.decide(added.id, alice, taken.document.version, 'confirmed', null, decidedAt);
    if (!done.ok) throw new Error('not decided');
    return added.id;
  }

  beforeAll(async () => {
    store = await openTestStore(engine);
    env = {
      APP_DATA_DIR: store.settings.dataDir,
      ...(store.settings.databaseUrl === undefined ? {} : { DATABASE_URL: store.settings.databaseUrl }),
      FILE_STORAGE: 'disk',
    };
    queue = new QueueStore(store.database, 60_000);
    disk = new DiskFileStorage(path.join(store.settings.dataDir, 'files'));
    const operators = new OperatorStore(store.database);
    const admin = (await operators.create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)).id;
    alice = (await operators.create({ name: 'Alice', role: 'operator', passwordHash: 'x' }, T0)).id;
    await new ModelSettingsStore(store.database).put(
      'v2',
      'model-purge',
      0,
      {
        routing: DEFAULT_ROUTING,
        rules: [],
        feedbackEnabled: false,
        retention: { filesAfterDays: 30, documentsAfterDays: 365 },
      },
      admin,
      T0,
    );
    doc.old = await add(1, T0); // 400 days: deleted
    doc.recent = await add(2, T0 + 300 * DAY_MS); // 100 days: its file goes, it stays
    doc.waiting = await add(3, null); // never decided: never touched
  });
  afterAll(async () => {
    await store.cleanup();
  });

  const exists = async (id: string) => (await queue.find(id)) !== undefined;
  const fileThere = (n: number) => existsSync(path.join(store.settings.dataDir, 'files', keys[n] ?? ''));

  it('lists what would go, per model, without a file name, and changes nothing', async () => {
    const { code, stdout, stderr } = await run(['purge', '--dry-run']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('dry run at 2027-02-09T09:00:00Z: nothing is changed');
    expect(stdout).toContain('v2 model-purge (files after 30 day(s), documents after 365 day(s)):');
    expect(stdout).toContain(`1 document(s) to delete:\n    ${doc.old}  decided 2026-01-05T09:00:00Z\n`);
    expect(stdout).toContain(
      `1 file(s) to remove (the documents stay):\n    ${doc.recent}  decided 2026-11-01T09:00:00Z\n`,
    );
    expect(stdout).toContain('Would delete 1 document(s) and remove 1 file(s).');
    expect(stdout).not.toContain(doc.waiting);
    expect(stdout).not.toMatch(/Jane|Invoice|\.pdf/);
    expect([await exists(doc.old), fileThere(1), fileThere(2)]).toEqual([true, true, true]);
    expect(await new PurgeLog(store.database).list(10)).toEqual([]);
  });

  it('refuses while another copy purges', async () => {
    const log = new PurgeLog(store.database);
    const lease = await log.acquire('another copy', NOW);
    expect(lease).toBeDefined();
    const { code, stderr } = await run(['purge']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/copy is purging now/);
    expect(await exists(doc.old)).toBe(true);
    if (lease !== undefined) await log.release(lease, NOW);
  });

  it('purges, removes the files, and keeps the run in the purge log', async () => {
    const { code, stdout, stderr } = await run(['purge']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('v2 model-purge: 1 document(s) deleted, 1 file(s) removed');
    expect(await exists(doc.old)).toBe(false);
    expect((await queue.find(doc.recent))?.file_removed_at).toBe(NOW);
    expect(await exists(doc.waiting)).toBe(true);
    expect([fileThere(1), fileThere(2), fileThere(3)]).toEqual([false, false, true]);
    const runs = await new PurgeLog(store.database).list(10);
    expect(runs).toEqual([
      expect.objectContaining({
        trigger: 'command',
        copy: expect.stringMatching(/^npm run documents -- purge on /),
        filesRemoved: 1,
        documentsDeleted: 1,
        models: [{ apiVersion: 'v2', model: 'model-purge', filesRemoved: 1, documentsDeleted: 1 }],
        errors: [],
      }),
    ]);

    const again = await run(['purge', '--dry-run']);
    expect(again.stdout).toContain('  nothing due\n');
    // A purge with nothing due is kept as the last check, beside the runs that purged something.
    expect((await run(['purge'], NOW + 1000)).code).toBe(0);
    expect((await run(['purge'], NOW + 2000)).code).toBe(0);
    expect((await new PurgeLog(store.database).list(10)).map((r) => r.documentsDeleted)).toEqual([0, 1]);
  });
});

describe('npm run documents', () => {
  it('checks its arguments', async () => {
    const run = async (argv: string[]) => {
      const stdout = capture();
      const stderr = capture();
      const code = await runDocumentsCommand(argv, { stdout, stderr, env: {} });
      return { code, stdout: stdout.text() };
    };
    expect((await run(['purge', '--force'])).code).toBe(2);
    expect((await run(['erase'])).code).toBe(2);
    const help = await run(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('purge [--dry-run]');
  });
});
