/**
 * The words of a job's page over real HTTP (a test server): the path names the API version and the
 * upstream job (encoded as one segment), and the answer is checked with its schema.
 */
import { describe, expect, it } from 'vitest';
import { SchemaMismatchError } from '../errors';
import { sendJson, serveEach } from '../testing/test-server';
import { getJobPageWords, type PageWordsResponse } from './page-words';

const serve = serveEach();

const WORDS: PageWordsResponse = {
  page: 1,
  width: 612,
  height: 792,
  source: 'ocr',
  words: [
    {
      text: '1,234.56',
      polygon: [
        [0.36, 0.6],
        [0.5, 0.6],
        [0.5, 0.63],
        [0.36, 0.63],
      ],
      confidence: 0.93,
    },
  ],
};

describe('getJobPageWords', () => {
  it('asks for the page of the job’s kept document, by version and job id', async () => {
    let asked = '';
    const { client } = await serve((req, res) => {
      asked = req.url ?? '';
      sendJson(res, 200, WORDS);
    });
    expect(await getJobPageWords('v1', 'job 7/a', 1, { client })).toEqual(WORDS);
    expect(asked).toBe('/api/review/jobs/v1/job%207%2Fa/pages/1/words');
  });

  it('refuses an answer that is not words', async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, { page: 0, words: 'none' }));
    await expect(getJobPageWords('v2', 'job-1', 0, { client })).rejects.toBeInstanceOf(SchemaMismatchError);
  });
});
