/** The housekeeping pass: sessions swept in batches while they come back full, retention off at 0, and a store away is a failed pass, never a throw out of the loop. */
import { describe, expect, it, vi } from 'vitest';
import { captureLogs } from '@extraction-review/test-kit/log-capture';
import { Housekeeping } from './housekeeping';
import type { PurgeRun } from './retention-purge';

const clock = { now: () => 1_000 };
/** The purge log's lease, always free, and its records (store/purge-log.ts has the real one). */
const purgeLog = {
  acquire: vi.fn().mockResolvedValue({ id: 1 }),
  release: vi.fn().mockResolvedValue(undefined),
  record: vi.fn((run: Omit<PurgeRun, 'id'>) => Promise.resolve({ id: 'r', ...run })),
};

describe('housekeeping', () => {
  it('sweeps sessions batch after batch, purges, and removes the purged files', async () => {
    const deleteExpired = vi
      .fn()
      .mockResolvedValueOnce({ sessions: 2, links: 0 })
      .mockResolvedValue({ sessions: 1, links: 0 });
    const sweepRetention = vi.fn().mockResolvedValue({
      items: [
        { action: 'remove_file', apiVersion: 'v2', model: 'm', documentId: 'a', decidedAt: 0 },
        { action: 'delete_document', apiVersion: 'v2', model: 'm', documentId: 'b', decidedAt: 0 },
      ],
      removedFileKeys: ['k1'],
      more: false,
    });
    const remove = vi.fn().mockResolvedValue(undefined);
    const sweepCounters = vi.fn().mockResolvedValueOnce(2).mockResolvedValue(0);
    const logs = captureLogs();
    const fold = vi.fn().mockResolvedValue(undefined);
    const housekeeping = new Housekeeping({
      review: {
        queue: { sweepRetention, counts: { fold } },
        sessions: { deleteExpired },
        limits: { deleteExpired: sweepCounters },
        files: { remove },
        clock,
      },
      purgeLog,
      intervalMs: 60_000,
      batch: 2,
    });
    expect(await housekeeping.runOnce()).toEqual({
      sessions: 3,
      links: 0,
      counters: 2,
      filesRemoved: 1,
      documentsDeleted: 1,
      more: false,
    });
    expect(deleteExpired).toHaveBeenCalledTimes(2);
    expect(fold).toHaveBeenCalledTimes(1);
    expect(sweepCounters).toHaveBeenCalledTimes(2);
    expect(remove).toHaveBeenCalledWith('k1');
    logs.restore();
    expect(logs.records()).toContainEqual(
      expect.objectContaining({ level: 'info', files_removed: 1, documents_deleted: 1 }),
    );
  });

  it('purges nothing at 0, and a failing store fails the pass without a throw', async () => {
    const sweepRetention = vi.fn();
    const deleteExpired = vi
      .fn()
      .mockRejectedValue(Object.assign(new Error('gone'), { code: 'ECONNREFUSED' }));
    const logs = captureLogs();
    const housekeeping = new Housekeeping({
      review: { queue: { sweepRetention }, sessions: { deleteExpired }, clock },
      purgeLog,
      intervalMs: 0,
    });
    expect(await housekeeping.loop.runOnce()).toBe(false);
    logs.restore();
    expect(sweepRetention).not.toHaveBeenCalled();
    expect(logs.messages('warn').join('\n')).toMatch(/housekeeping/);
  });
});
