import { describe, expect, it } from 'vitest';
import { ProblemError } from '@extraction-review/contract/problem';
import { InvalidTransitionError, isFinal, newJob, pollAnswer, transition } from './job-state';

const created = new Date('2025-03-14T10:00:00.000Z');
const done = new Date('2025-03-14T10:00:02.500Z');
const job = newJob({
  id: 'job-1',
  modelId: 'model-1',
  filename: 'invoice.pdf',
  alias: null,
  mimeType: 'application/pdf',
  fileSize: 1234,
  at: created,
});
const problem = new ProblemError('422-003', 'No text layer.').toBody();

describe('job state machine', () => {
  it('starts Processing, with nothing completed', () => {
    expect(job).toMatchObject({
      status: 'Processing',
      createdAt: '2025-03-14T10:00:00.000Z',
      completedAt: null,
      inferenceId: null,
      error: null,
    });
    expect(isFinal(job.status)).toBe(false);
  });

  it('Processing → Processed fills completed_at and the inference, and keeps the rest', () => {
    const processed = transition(job, { type: 'processed', inferenceId: 'inf-1', at: done });
    expect(processed).toEqual({
      ...job,
      status: 'Processed',
      completedAt: '2025-03-14T10:00:02.500Z',
      inferenceId: 'inf-1',
      error: null,
    });
    expect(isFinal(processed.status)).toBe(true);
  });

  it('Processing → Failed fills completed_at and the error, with no inference', () => {
    const failed = transition(job, { type: 'failed', error: problem, at: done });
    expect(failed).toMatchObject({
      status: 'Failed',
      completedAt: '2025-03-14T10:00:02.500Z',
      inferenceId: null,
    });
    expect(failed.error).toEqual(problem);
  });

  it('refuses every event once final', () => {
    const processed = transition(job, { type: 'processed', inferenceId: 'inf-1', at: done });
    const failed = transition(job, { type: 'failed', error: problem, at: done });
    for (const final of [processed, failed]) {
      expect(() => transition(final, { type: 'failed', error: problem, at: done })).toThrow(
        InvalidTransitionError,
      );
      expect(() => transition(final, { type: 'processed', inferenceId: 'inf-2', at: done })).toThrow(
        InvalidTransitionError,
      );
    }
  });

  it('does not change the job it is given', () => {
    const before = structuredClone(job);
    transition(job, { type: 'processed', inferenceId: 'inf-1', at: done });
    expect(job).toEqual(before);
  });
});

describe('poll answer', () => {
  const processed = transition(job, { type: 'processed', inferenceId: 'inf-1', at: done });
  const failed = transition(job, { type: 'failed', error: problem, at: done });

  it('redirects to the result only once processed', () => {
    expect(pollAnswer(processed, true)).toEqual({ status: 302, inferenceId: 'inf-1' });
    expect(pollAnswer(job, true)).toEqual({ status: 200 });
    expect(pollAnswer(failed, true)).toEqual({ status: 200 });
  });

  it('never redirects with redirect=false', () => {
    for (const j of [job, processed, failed]) expect(pollAnswer(j, false)).toEqual({ status: 200 });
  });
});
