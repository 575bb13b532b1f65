import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NetworkError, ProblemDetailsError } from '../../../api/errors';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { NO_EDITS, type Edits } from '@extraction-review/review-domain/fields/review-tree';
import { createCorrectionsSaver, type SaverStatus } from './corrections-saver';
import type { ServerCorrection } from '@extraction-review/review-domain/queue/corrections-sync';

const edits = (values: Edits['values']): Edits => ({ ...NO_EDITS, values });

/** A fake review store: keeps the latest value per path and moves the version on, as the server does. */
function fakeServer() {
  let version = 3;
  const corrections: Record<string, unknown> = {};
  const calls: { version: number; corrections: ServerCorrection[] }[] = [];
  const save = vi.fn(async (v: number, sent: ServerCorrection[]) => {
    calls.push({ version: v, corrections: sent });
    for (const c of sent) corrections[c.path] = c.value;
    version += 1;
    return { version, corrections: { ...corrections } } as unknown as ReviewDocument;
  });
  return { save, calls };
}

function setUp(save: ReturnType<typeof fakeServer>['save']) {
  const statuses: SaverStatus['kind'][] = [];
  const saver = createCorrectionsSaver(
    { version: 3, acked: NO_EDITS },
    { save, onAnswer: vi.fn(), onStatus: (s) => statuses.push(s.kind) },
  );
  saver.start();
  return { saver, statuses };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createCorrectionsSaver', () => {
  it('waits for a pause, sends once, and sends the rest on the version of the last answer', async () => {
    const server = fakeServer();
    const { saver, statuses } = setUp(server.save);
    saver.update(edits({ a: '1' }));
    await vi.advanceTimersByTimeAsync(200);
    saver.update(edits({ a: '12' }));
    await vi.advanceTimersByTimeAsync(399);
    expect(server.save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toEqual([{ version: 3, corrections: [{ path: 'a', value: '12' }] }]);
    saver.update(edits({ a: '12', b: true }));
    await vi.advanceTimersByTimeAsync(400);
    expect(server.calls[1]).toEqual({ version: 4, corrections: [{ path: 'b', value: true }] });
    expect(statuses.at(-1)).toBe('saved');
    expect(saver.version()).toBe(5);
  });

  it('keeps the edits through a network failure and tries again, waiting longer each time', async () => {
    const server = fakeServer();
    const failing = vi
      .fn(server.save)
      .mockRejectedValueOnce(new NetworkError({ endpoint: 'PUT /x' }))
      .mockRejectedValueOnce(new NetworkError({ endpoint: 'PUT /x' }));
    const { saver, statuses } = setUp(failing);
    saver.update(edits({ a: '1' }));
    await vi.advanceTimersByTimeAsync(400);
    expect(statuses.at(-1)).toBe('retrying');
    await vi.advanceTimersByTimeAsync(1000);
    expect(failing).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(failing).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(failing).toHaveBeenCalledTimes(3);
    expect(statuses.at(-1)).toBe('saved');
    await expect(saver.flush()).resolves.toBeUndefined();
  });

  it('stops, instead of sending the same again and again, when an answer did not keep what was sent', async () => {
    const forgetful = vi.fn(async () => ({ version: 4, corrections: {} }) as unknown as ReviewDocument);
    const { saver, statuses } = setUp(forgetful);
    saver.update(edits({ a: '1' }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(forgetful).toHaveBeenCalledTimes(1);
    expect(statuses.at(-1)).toBe('blocked');
    await expect(saver.flush()).rejects.toThrow(/did not keep these corrections as sent: a/);
  });

  it('stops at a refusal, and goes on from the version read again', async () => {
    const server = fakeServer();
    const stale = new ProblemDetailsError(
      { status: 409, title: 'Changed', detail: 'Changed since you read it.', code: '409-001', errors: [] },
      { endpoint: 'PUT /x' },
    );
    const refusing = vi.fn(server.save).mockRejectedValueOnce(stale);
    const { saver, statuses } = setUp(refusing);
    saver.update(edits({ a: '1' }));
    const flushed = saver.flush();
    await expect(flushed).rejects.toBe(stale);
    expect(statuses.at(-1)).toBe('blocked');
    saver.update(edits({ a: '2' }));
    await vi.advanceTimersByTimeAsync(5000);
    expect(refusing).toHaveBeenCalledTimes(1);
    saver.rebase(7, edits({ a: 'theirs' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toEqual([{ version: 7, corrections: [{ path: 'a', value: '2' }] }]);
  });
});
