import { describe, expect, it } from 'vitest';
import { INITIAL_OPTIONS, buildEnqueueOptions, splitIds } from './enqueue-request';

describe('buildEnqueueOptions', () => {
  it('sends nothing the operator left to the model', () => {
    expect(buildEnqueueOptions(INITIAL_OPTIONS, [], undefined)).toEqual({ options: {}, summary: {} });
  });

  it('sends each option that was set, "off" included, and sums them up', () => {
    const { options, summary } = buildEnqueueOptions(
      {
        ...INITIAL_OPTIONS,
        alias: '  PO-1 ',
        toggles: { raw_text: 'on', polygon: 'off', confidence: 'default', rag: 'default' },
        textContext: 'Dates are day first',
        extraWebhookIds: 'b, a ,,c',
      },
      ['a'],
      { replace: null },
    );
    expect(options).toEqual({
      alias: 'PO-1',
      raw_text: true,
      polygon: false,
      text_context: 'Dates are day first',
      webhook_ids: ['a', 'b', 'c'],
      data_schema: { replace: null },
    });
    expect(summary).toEqual({
      alias: 'PO-1',
      raw_text: true,
      polygon: false,
      textContext: true,
      webhookIds: ['a', 'b', 'c'],
      dataSchemaReplaced: false,
    });
  });

  it('reads pasted ids separated by commas, spaces or semicolons', () => {
    expect(splitIds(' a,b ; c\nd ')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitIds('')).toEqual([]);
  });
});
